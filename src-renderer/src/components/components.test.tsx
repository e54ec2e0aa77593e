// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STDERR_TAIL_MARKER } from '@shared/errors';
import type { SessionStatus } from '@shared/session';
import type { WireToolCallEvent } from '@shared/wire';
import { stateText } from '@shared/session';
import { StateBadge } from './StateBadge';
import { ServerErrorBlock } from './ServerErrorBlock';
import { ToolCallCard, viewOfEvent } from './ToolCallCard';
import { TooltipProvider } from '../ui';

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

beforeAll(() => {
  // happy-dom has no object URLs; the gallery only needs distinct strings.
  let n = 0;
  URL.createObjectURL = () => `blob:test/${n++}`;
  URL.revokeObjectURL = () => undefined;
});
afterEach(cleanup);

const status = (extra: Partial<SessionStatus>): SessionStatus => ({
  name: 's',
  state: 'ready',
  toolCount: 3,
  metrics: { calls: 0, errors: 0, p50Ms: null, p95Ms: null, reconnects: 0 },
  ...extra,
});

describe('StateBadge', () => {
  it('says what the session is doing in a word or two; why it failed is not squeezed into it', () => {
    expect(stateText(status({ state: 'reconnecting', attempt: 2, maxAttempts: 5 }), true)).toBe(
      'reconnecting 2/5',
    );
    expect(
      stateText(
        status({ state: 'failed', error: { code: 'connect_failed', message: 'spawn ENOENT' } }),
        true,
      ),
    ).toBe('failed');
    expect(stateText(status({}), false)).toBe('disabled');
    render(<StateBadge status={status({ state: 'connecting' })} enabled />);
    expect(screen.getByRole('status').textContent).toBe('connecting…');
  });
});

describe('ServerErrorBlock', () => {
  it('shows the reason, the stderr tail as its own monospace block (as text), and the hint', () => {
    const message = `The server process exited (code 1) before the MCP handshake finished${STDERR_TAIL_MARKER}Error: <img src=x onerror=alert(1)>\n    at main`;
    const { container } = render(
      <TooltipProvider>
        <ServerErrorBlock
          error={{ code: 'connect_failed', message, hint: 'Run the command in a terminal.' }}
        />
      </TooltipProvider>,
    );
    expect(screen.getByText(/exited \(code 1\)/).textContent).toBe(
      'The server process exited (code 1) before the MCP handshake finished',
    );
    const stderr = screen.getByTestId('server-stderr');
    expect(stderr.tagName).toBe('PRE');
    expect(stderr.textContent).toBe('Error: <img src=x onerror=alert(1)>\n    at main');
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('Run the command in a terminal.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy stderr' })).toBeTruthy();
  });
});

describe('ToolCallCard', () => {
  const card = (e: Omit<WireToolCallEvent, 'seq'>) => viewOfEvent({ ...e, seq: 1, arguments: {} });
  const base = {
    id: '1',
    server: 'everything',
    tool: 'get-tiny-image',
    modelName: 'm',
    friendlyName: 'Get Tiny Image',
    at: 1,
  };

  it("a call run as a task shows its status and the server's words; Cancel only while it runs", () => {
    let cancelled = 0;
    const task = {
      taskId: 't1',
      status: 'working' as const,
      statusMessage: 'Gathering sources…',
      cancellable: true,
    };
    const { rerender } = render(
      <ToolCallCard view={card({ ...base, phase: 'running', task })} onCancelTask={() => cancelled++} />,
    );
    expect(screen.getByTestId('call-task').textContent).toContain('task working');
    expect(screen.getByTestId('call-task').textContent).toContain('Gathering sources…');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel task' }));
    expect(cancelled).toBe(1);
    rerender(
      <ToolCallCard
        view={card({ ...base, phase: 'done', task: { ...task, status: 'completed', resumed: true } })}
        onCancelTask={() => cancelled++}
      />,
    );
    expect(screen.getByTestId('call-task').getAttribute('data-status')).toBe('completed');
    expect(screen.getByTestId('call-task').textContent).toContain('followed again after Mooring restarted');
    expect(screen.queryByRole('button', { name: 'Cancel task' })).toBeNull();
  });

  it('shows progress while running and the error with its hint when refused', () => {
    const { rerender } = render(
      <ToolCallCard
        view={card({ ...base, phase: 'running', progress: { progress: 1, total: 4, message: 'step 1' } })}
      />,
    );
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    // The server's words stand outside the bar (a few pixels high), where they can be read.
    expect(screen.getByRole('progressbar').textContent).toBe('');
    expect(screen.getByTestId('call-progress').textContent).toBe('step 1');
    expect(screen.getByTestId('call-phase').textContent).toBe('running');
    rerender(
      <ToolCallCard
        view={card({
          ...base,
          phase: 'refused',
          error: { code: 'refused', message: 'You denied it.', hint: 'Ask again.' },
        })}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('You denied it.');
    expect(screen.getByRole('alert').textContent).toContain('Ask again.');
  });

  it('renders a result natively: text, structured JSON, and images in a gallery with a keyboard lightbox', async () => {
    const result = {
      isError: false,
      parts: [
        { kind: 'text' as const, text: 'two images' },
        { kind: 'image' as const, mimeType: 'image/png', base64: PNG, size: 70 },
        { kind: 'image' as const, mimeType: 'image/png', base64: PNG, size: 70 },
      ],
      structured: { count: 2 },
    };
    render(<ToolCallCard view={card({ ...base, phase: 'done', result })} />);
    expect(screen.getByText('two images')).toBeTruthy();
    expect(screen.getByText(/"count": 2/)).toBeTruthy();
    const thumbs = screen.getAllByRole('listitem');
    expect(thumbs).toHaveLength(2);
    await act(async () => fireEvent.click(thumbs[0]!));
    const box = await screen.findByTestId('lightbox');
    expect(screen.getByTestId('lightbox-position').textContent).toMatch(/^1 \/ 2/);
    await act(async () => fireEvent.keyDown(box, { key: 'ArrowRight' }));
    expect(screen.getByTestId('lightbox-position').textContent).toMatch(/^2 \/ 2/);
    await act(async () => fireEvent.keyDown(box, { key: 'ArrowRight' }));
    expect(screen.getByTestId('lightbox-position').textContent).toMatch(/^1 \/ 2/);
    expect(screen.getByRole('link', { name: 'Save to file' }).getAttribute('download')).toBe(
      'get-tiny-image-1.png',
    );
  });

  it("keeps the server's order of text and images (server-everything's text, image, text)", () => {
    const result = {
      isError: false,
      parts: [
        { kind: 'text' as const, text: 'This is a tiny image:' },
        { kind: 'image' as const, mimeType: 'image/png', base64: PNG, size: 70 },
        { kind: 'text' as const, text: 'The image above is the MCP logo.' },
      ],
    };
    render(<ToolCallCard view={card({ ...base, phase: 'done', result })} />);
    const shown = [...screen.getByTestId('tool-result').querySelectorAll('pre, [role="list"]')];
    expect(shown.map((e) => (e.tagName === 'PRE' ? e.textContent : 'images'))).toEqual([
      'This is a tiny image:',
      'images',
      'The image above is the MCP logo.',
    ]);
  });

  it('names two galleries of one result apart', () => {
    const image = { kind: 'image' as const, mimeType: 'image/png', base64: PNG, size: 70 };
    const result = { isError: false, parts: [image, { kind: 'text' as const, text: 'between' }, image] };
    render(<ToolCallCard view={card({ ...base, phase: 'done', result })} />);
    expect(screen.getAllByTestId('gallery').map((g) => g.getAttribute('aria-label'))).toEqual([
      'Images from get-tiny-image, images 1',
      'Images from get-tiny-image, images 2',
    ]);
  });

  it('leaves out structured content that only restates the text, and shows other structure open', () => {
    const restating = {
      isError: false,
      parts: [{ kind: 'text' as const, text: '{"a":1}' }],
      structured: { a: 1 },
      structuredInText: true,
    };
    const { rerender } = render(<ToolCallCard view={card({ ...base, phase: 'done', result: restating })} />);
    expect(screen.queryByTestId('structured-result')).toBeNull();
    expect(screen.getByTestId('tool-result').textContent).not.toContain('the same as the text');
    rerender(
      <ToolCallCard
        view={card({ ...base, id: '2', phase: 'done', result: { ...restating, structuredInText: false } })}
      />,
    );
    expect((screen.getByTestId('structured-result') as HTMLDetailsElement).open).toBe(true);
  });

  it('labels the result, so it does not read as part of the folded arguments', () => {
    const result = { isError: false, parts: [{ kind: 'text' as const, text: 'three files' }] };
    render(<ToolCallCard view={card({ ...base, phase: 'done', result })} />);
    const region = screen.getByRole('region', { name: 'Result of Get Tiny Image' });
    expect(region.querySelector('h4')?.textContent).toBe('Result');
    expect(region.textContent).toContain('three files');
    expect(screen.getByTestId('call-arguments').contains(region)).toBe(false);
  });

  it('shows a call the person cancelled as cancelled, not as a red failure', () => {
    const { rerender } = render(
      <ToolCallCard
        view={card({
          ...base,
          phase: 'failed',
          error: { code: 'cancelled', message: 'The turn was cancelled' },
        })}
      />,
    );
    expect(screen.getByTestId('call-phase').textContent).toBe('cancelled');
    expect(screen.getByTestId('call-card').className).toContain('phase-cancelled');
    expect(screen.getByTestId('call-card').className).not.toContain('phase-failed');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('call-cancelled').textContent).toBe('You cancelled this call.');
    rerender(
      <ToolCallCard
        view={card({ ...base, phase: 'failed', error: { code: 'timeout', message: 'Timed out.' } })}
      />,
    );
    expect(screen.getByTestId('call-phase').textContent).toBe('failed');
    expect(screen.getByRole('alert').textContent).toContain('Timed out.');
  });

  it('marks a call that ran under a standing permission, with what granted it', () => {
    const { rerender } = render(
      <ToolCallCard view={viewOfEvent({ ...base, seq: 4, phase: 'running', grant: 'Always allow' })} />,
    );
    expect(screen.getByTestId('call-grant').textContent).toBe('✓ Always allow');
    expect(screen.getByTestId('call-grant').getAttribute('title')).toContain('Ran without asking you');
    rerender(<ToolCallCard view={viewOfEvent({ ...base, seq: 5, phase: 'running' })} />);
    expect(screen.queryByTestId('call-grant')).toBeNull();
  });

  it('marks arguments the user edited before approving', () => {
    render(
      <ToolCallCard
        view={viewOfEvent({ ...base, seq: 3, phase: 'running', editedArguments: { path: '/edited' } })}
      />,
    );
    expect(screen.getByTestId('call-arguments').textContent).toContain('edited by you before approval');
    expect(screen.getByTestId('call-arguments').textContent).toContain('/edited');
  });
});
