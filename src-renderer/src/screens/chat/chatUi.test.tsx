// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@shared/chat';
import { TooltipProvider } from '../../ui';
import { announcementOf, ChatAnnouncer } from './ChatAnnouncer';
import { EditMessage, TurnActions, UserActions } from './MessageActions';
import { identity, stepParts, viewOfStep } from './ChatToolCard';
import { NoModelBanner } from './NoModelBanner';

afterEach(cleanup);

const tool = (status: 'done' | 'failed'): ChatMessage => ({
  id: `t-${status}`,
  at: 1,
  role: 'tool',
  toolCallId: 'c',
  name: 'mcp__fs__list_directory',
  status,
  text: '',
  target: { server: 'fs', tool: 'list_directory', friendlyName: 'List directory' },
});
const answer = (text: string): ChatMessage => ({ id: 'a', at: 2, role: 'assistant', text, toolCalls: [] });

describe('the live region', () => {
  it('says each tool step by its friendly name, and the answer when the turn ends', () => {
    expect(announcementOf([tool('done')])).toBe('Tool List directory: done.');
    expect(announcementOf([], [tool('failed'), answer('Two files.')])).toBe('Answer: Two files.');
    expect(announcementOf([answer('not yet')])).toBeNull();
  });

  it('announces what arrives while open, not what was loaded', () => {
    const loaded = [answer('old answer')];
    const { rerender } = render(<ChatAnnouncer messages={loaded} running={false} />);
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('');
    rerender(<ChatAnnouncer messages={[...loaded, tool('done')]} running={true} />);
    expect(region.textContent).toBe('Tool List directory: done.');
    rerender(<ChatAnnouncer messages={[...loaded, tool('done'), answer('Done now.')]} running={false} />);
    expect(region.textContent).toBe('Answer: Done now.');
  });
});

describe('message actions', () => {
  it('edit: the editor holds the text, Enter sends the edit, Escape gives up', () => {
    const onSend = vi.fn();
    const onCancel = vi.fn();
    render(<EditMessage text="Name a colour" onSend={onSend} onCancel={onCancel} />);
    const area = screen.getByLabelText('Edited text');
    expect(document.activeElement).toBe(area);
    fireEvent.change(area, { target: { value: 'Name a fruit' } });
    fireEvent.keyDown(area, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('Name a fruit');
    fireEvent.keyDown(area, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalled();
  });

  it('offers edit and regenerate only while nothing answers, and regenerate only on the last turn', () => {
    const handlers = { idle: true, onEdit: vi.fn(), onRegenerate: vi.fn() };
    const { rerender } = render(
      <TooltipProvider>
        <UserActions text="q" idle={true} onEdit={() => undefined} />
        <TurnActions text="a" last={true} handlers={handlers} />
      </TooltipProvider>,
    );
    expect(screen.getByRole('button', { name: 'Edit and ask again' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate answer' }));
    expect(handlers.onRegenerate).toHaveBeenCalled();
    rerender(
      <TooltipProvider>
        <UserActions text="q" idle={false} onEdit={() => undefined} />
        <TurnActions text="a" last={false} handlers={handlers} />
      </TooltipProvider>,
    );
    expect(screen.queryByRole('button', { name: 'Edit and ask again' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Regenerate answer' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy answer' })).toBeTruthy();
  });
});

describe('a saved tool step on its card', () => {
  const call = { id: 'c', name: 'mcp__fs__list_directory', arguments: { path: '.' } };
  it('is cancelled when the loop says the person stopped it, and failed otherwise', () => {
    const step = (text: string) => ({ ...tool('failed'), text }) as Extract<ChatMessage, { role: 'tool' }>;
    expect(viewOfStep(call, step('cancelled: The turn was cancelled')).cancelled).toBe(true);
    expect(viewOfStep(call, step('cancelled')).cancelled).toBe(true);
    expect(viewOfStep(call, step('ENOENT: no such file')).cancelled).toBeUndefined();
  });

  it("shows text and images in the server's order, and the structured line only once (as JSON)", () => {
    const image = { mimeType: 'image/png', data: 'iVBORw0KGgo=' };
    const step = {
      ...tool('done'),
      text: 'This is a tiny image:\nThe image above is the MCP logo.\nStructured result (JSON): {"n":1}',
      images: [image],
      imagesAt: ['This is a tiny image:'.length],
      textShown: 'This is a tiny image:\nThe image above is the MCP logo.'.length,
      structured: { n: 1 },
    } as Extract<ChatMessage, { role: 'tool' }>;
    expect(stepParts(step).map((p) => (p.kind === 'text' ? p.text : p.kind))).toEqual([
      'This is a tiny image:',
      'image',
      'The image above is the MCP logo.',
    ]);
    // A step saved before these fields: all of the text, then the images.
    const { imagesAt: _a, textShown: _t, ...older } = step;
    expect(stepParts(older).map((p) => (p.kind === 'text' ? p.text : p.kind))).toEqual([step.text, 'image']);
  });
});

describe('the banner when no model is reachable', () => {
  it('names the provider that is down and what to do for it, not Ollama for every provider', () => {
    const { rerender } = render(
      <NoModelBanner model="openai:gpt-4o" reason="fetch failed" onOpenModels={() => undefined} />,
    );
    const banner = screen.getByTestId('chat-no-model');
    expect(banner.textContent).toContain('The OpenAI-compatible endpoint is not reachable (openai:gpt-4o).');
    expect(banner.textContent).toContain('fetch failed.');
    expect(banner.textContent).toContain('OPENAI_API_KEY');
    expect(banner.textContent).not.toContain('Ollama');
    rerender(<NoModelBanner model="ollama:llama3.2" reason="fetch failed" onOpenModels={() => undefined} />);
    expect(banner.textContent).toContain('Ollama is not reachable');
    expect(banner.textContent).toContain('Start Ollama');
    rerender(<NoModelBanner model="anthropic:claude" reason={undefined} onOpenModels={() => undefined} />);
    expect(banner.textContent).toContain('ANTHROPIC_API_KEY');
    expect(banner.textContent).not.toContain('Ollama');
  });
});

describe("a failed call's card", () => {
  it('names the tool by its title and server from the catalog when the step does not say which tool it was', () => {
    const call = { id: 'c', name: 'mcp__fs__write_file', arguments: {} };
    const failed = { ...tool('failed'), name: call.name, text: 'listed in excludeTools' } as Extract<
      ChatMessage,
      { role: 'tool' }
    >;
    delete (failed as { target?: unknown }).target;
    const known = [
      { server: 'fs', tool: 'write_file', friendlyName: 'Write File (fs)', modelName: 'mcp__fs__write_file' },
    ];
    expect(viewOfStep(call, failed, undefined, known)).toMatchObject({
      friendlyName: 'Write File (fs)',
      server: 'fs',
      tool: 'write_file',
    });
    // A bare name the model used resolves too, when one tool has it.
    expect(identity({ ...call, name: 'write_file' }, undefined, undefined, known).friendlyName).toBe(
      'Write File (fs)',
    );
    // Without a catalog entry, what the name says.
    expect(viewOfStep(call, failed).friendlyName).toBe('write_file');
  });
});
