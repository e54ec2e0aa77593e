import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/chat';
import { MooringError } from '../errors';
import { ConversationStore, titleFromText } from './conversationStore';

let home: string;
let warnings: string[];
let store: ConversationStore;

const user = (id: string, text: string, at = Date.now()): ChatMessage => ({
  id,
  at,
  role: 'user',
  content: [{ type: 'text', text }],
});

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mooring-store-'));
  warnings = [];
  store = ConversationStore.forHome(home, (w) => warnings.push(w));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('ConversationStore', () => {
  it('appends steps to one JSONL file per conversation and loads them back in order', async () => {
    const c = await store.create({ title: 'Trip planning', workspace: '/projects/trip' });
    await store.append(c.id, user('m1', 'hello'));
    await store.append(c.id, { id: 'm2', at: Date.now(), role: 'assistant', text: 'hi', toolCalls: [] });
    const file = join(home, 'conversations', `${c.id}.jsonl`);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    const loaded = await store.load(c.id);
    expect(loaded.messages.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(loaded.summary).toMatchObject({ id: c.id, title: 'Trip planning', workspace: '/projects/trip' });
    expect(loaded.warnings).toEqual([]);
  });

  it('a model title replaces the first words only: never a title the person chose, even one written later', async () => {
    const c = await store.create({ title: 'what is the weather in', titleFrom: 'first-words' });
    expect((await store.load(c.id)).titleSource).toBe('first-words');
    await store.setModelTitle(c.id, 'Weather in Paris');
    const named = await store.load(c.id);
    expect([named.summary.title, named.titleSource]).toEqual(['Weather in Paris', 'model']);
    // The person renames; a model title that arrives after (another process, a late answer) does not count.
    await store.rename(c.id, 'My trip');
    await store.setModelTitle(c.id, 'Paris forecast');
    const renamed = await store.load(c.id);
    expect([renamed.summary.title, renamed.titleSource]).toEqual(['My trip', 'user']);
    // A title given at creation (an import, a schedule's run) is not the model's to replace either.
    const given = await store.create({ title: 'Nightly report' });
    await store.setModelTitle(given.id, 'Something else');
    expect((await store.load(given.id)).summary.title).toBe('Nightly report');
  });

  it('loads a file from before titles were tracked: its title and renames as they were, none replaced', async () => {
    const dir = join(home, 'conversations');
    const id = 'old-one';
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${id}.jsonl`),
      [
        JSON.stringify({ kind: 'meta', id, title: 'hello there', createdAt: 1000, workspace: null }),
        JSON.stringify({ kind: 'message', message: user('u1', 'hello there', 1001) }),
        JSON.stringify({ kind: 'rename', title: 'Greetings', at: 1002 }),
      ].join('\n') + '\n',
    );
    const old = await store.load(id);
    expect([old.summary.title, old.titleSource, old.summary.updatedAt]).toEqual(['Greetings', 'user', 1002]);
    await store.setModelTitle(id, 'Model title');
    expect((await store.load(id)).summary.title).toBe('Greetings');
  });

  it('branches before a message of the person: it and the later messages leave, the rest goes on', async () => {
    const c = await store.create({ title: 'Branching' });
    await store.append(c.id, user('u1', 'first'));
    await store.append(c.id, { id: 'a1', at: Date.now(), role: 'assistant', text: 'one', toolCalls: [] });
    await store.append(c.id, user('u2', 'second'));
    await store.append(c.id, { id: 'a2', at: Date.now(), role: 'assistant', text: 'two', toolCalls: [] });
    const from = await store.branchBefore(c.id, 'u2');
    expect(from.content).toEqual([{ type: 'text', text: 'second' }]);
    await store.append(c.id, user('u3', 'second, edited'));
    expect((await store.load(c.id)).messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u3']);
    // Only the person's own messages are branch points.
    await expect(store.branchBefore(c.id, 'a1')).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.branchBefore(c.id, 'u2')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('skips a torn last line with a warning and keeps everything before it', async () => {
    const c = await store.create({ title: 't' });
    await store.append(c.id, user('m1', 'kept'));
    const file = join(home, 'conversations', `${c.id}.jsonl`);
    appendFileSync(file, '{"kind":"message","message":{"id":"m2","at":1,"ro');
    const loaded = await store.load(c.id);
    expect(loaded.messages.map((m) => m.id)).toEqual(['m1']);
    expect(loaded.warnings).toEqual([
      expect.stringContaining('skipped the last line, a torn or damaged write'),
    ]);
    expect(warnings).toEqual(loaded.warnings);
  });

  it('starts the next append on a fresh line after a torn write', async () => {
    const c = await store.create({ title: 't' });
    const file = join(home, 'conversations', `${c.id}.jsonl`);
    appendFileSync(file, '{"kind":"mess');
    await store.append(c.id, user('m3', 'after the crash'));
    const loaded = await store.load(c.id);
    expect(loaded.messages.map((m) => m.id)).toEqual(['m3']);
    expect(loaded.warnings).toEqual([expect.stringContaining('line 2')]);
  });

  it('loads a file whose header line was torn, untitled', async () => {
    const dir = join(home, 'conversations');
    await store.create({ id: 'seed' });
    writeFileSync(join(dir, 'broken.jsonl'), '{"kind":"me');
    const loaded = await store.load('broken');
    expect(loaded.summary.title).toBe('Untitled conversation');
    expect(loaded.messages).toEqual([]);
  });

  it('lists most recent first, renames, searches titles, sets the workspace and deletes', async () => {
    const a = await store.create({ title: 'Budget review' });
    await store.append(a.id, user('a1', 'x', Date.now() - 10_000));
    const b = await store.create({ title: 'Holiday ideas' });
    await store.append(b.id, user('b1', 'y', Date.now() + 10_000));
    expect((await store.list()).map((c) => c.id)).toEqual([b.id, a.id]);

    await store.rename(a.id, '  Budget   2026 ');
    await store.setWorkspace(a.id, '/work/budget');
    const renamed = (await store.load(a.id)).summary;
    expect(renamed).toMatchObject({ title: 'Budget 2026', workspace: '/work/budget' });
    expect((await store.search('budget')).map((c) => c.id)).toEqual([a.id]);
    expect((await store.search('IDEAS')).map((c) => c.id)).toEqual([b.id]);
    expect(await store.search('nothing like it')).toEqual([]);

    await store.delete(b.id);
    expect((await store.list()).map((c) => c.id)).toEqual([a.id]);
    await expect(store.load(b.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.delete(b.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('rejects ids that could escape the folder, and empty titles, with a clear error', async () => {
    await expect(store.load('../../etc/passwd')).rejects.toBeInstanceOf(MooringError);
    await expect(store.load('../../etc/passwd')).rejects.toMatchObject({ code: 'usage' });
    const c = await store.create();
    await expect(store.rename(c.id, '   ')).rejects.toMatchObject({ code: 'usage', hint: 'Type a title' });
    await expect(store.append('nope', user('x', 'y'))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps concurrent appends whole and in call order', async () => {
    const c = await store.create();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.append(c.id, user(`m${i}`, 'z'.repeat(5000)))),
    );
    const loaded = await store.load(c.id);
    expect(loaded.messages.map((m) => m.id)).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`));
  });

  it('lists nothing before the folder exists', async () => {
    expect(await store.list()).toEqual([]);
  });

  it('titles a conversation from its first words', () => {
    expect(titleFromText('  What is\n in my folder? ')).toBe('What is in my folder?');
    expect(titleFromText('x'.repeat(100))).toHaveLength(60);
    expect(titleFromText('   ')).toBe('New conversation');
  });
});
