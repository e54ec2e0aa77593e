import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from './conversationStore';
import { exportConversation, importConversation } from './conversationTransfer';

let home: string;
let store: ConversationStore;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mooring-transfer-'));
  store = ConversationStore.forHome(home);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function sample(): Promise<string> {
  const c = await store.create({ title: 'Folder / tour', workspace: '/secret/project' });
  await store.append(c.id, {
    id: 'u1',
    at: 1,
    role: 'user',
    content: [
      { type: 'text', text: 'What is here?' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw==' },
    ],
  });
  await store.append(c.id, {
    id: 'a1',
    at: 2,
    role: 'assistant',
    text: 'Let me look.',
    toolCalls: [{ id: 'c1', name: 'list_directory', arguments: { path: '/tmp' } }],
    model: 'gpt-4o',
  });
  await store.append(c.id, {
    id: 't1',
    at: 3,
    role: 'tool',
    toolCallId: 'c1',
    name: 'list_directory',
    status: 'done',
    text: '[FILE] alpha.txt',
    target: { server: 'fs', tool: 'list_directory', friendlyName: 'List directory' },
    editedArguments: { path: '/tmp/sub' },
  });
  await store.append(c.id, { id: 'a2', at: 4, role: 'assistant', text: 'One **file**.', toolCalls: [] });
  return c.id;
}

describe('conversation export and import', () => {
  it('exports Markdown grouped by turn, tool steps with the arguments that ran', async () => {
    const { filename, content } = await exportConversation(store, await sample(), 'markdown');
    expect(filename).toBe('Folder-tour.md');
    expect(content).toContain('# Folder / tour');
    expect(content).toContain('## You\n\nWhat is here?\n_[image: image/png]_');
    expect(content).toContain('## Assistant (gpt-4o)\n\nLet me look.');
    expect(content).toContain('**Tool fs / list_directory** — done (arguments edited by you)');
    expect(content).toContain('"path": "/tmp/sub"');
    expect(content).toContain('One **file**.');
  });

  it('imports its JSON export as a new conversation with every message; the folder stays behind', async () => {
    const id = await sample();
    const { content } = await exportConversation(store, id, 'json');
    const copy = await importConversation(store, content);
    expect(copy.id).not.toBe(id);
    const [a, b] = await Promise.all([store.load(id), store.load(copy.id)]);
    expect(b.messages).toEqual(a.messages);
    expect(b.summary).toMatchObject({ title: 'Folder / tour', workspace: null });
  });

  it('refuses a file that is not an export, naming what is wrong, and writes nothing', async () => {
    await expect(importConversation(store, 'nope')).rejects.toMatchObject({
      code: 'usage',
      message: 'The file is not JSON',
    });
    const bad = JSON.stringify({
      format: 'mooring.conversation',
      version: 1,
      title: 't',
      messages: [{ id: 'x', at: 1, role: 'user', content: 'not a list' }],
    });
    await expect(importConversation(store, bad)).rejects.toThrow(/messages\.0\.content/);
    expect(await store.list()).toEqual([]);
  });
});
