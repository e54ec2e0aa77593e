import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MooringError } from '../errors';
import { MemoryStore } from './memoryStore';

const home = () => mkdtempSync(join(tmpdir(), 'mooring-memory-'));

describe('MemoryStore', () => {
  it('creates, reads, lists newest first, and deletes entries; a second store sees the same file', async () => {
    const dir = home();
    const store = MemoryStore.forHome(dir);
    const a = await store.create({ text: 'The staging database is on port 5433\nmore detail', tags: ['db'] });
    const b = await store.create({ text: 'Prefer pnpm over npm in this repo', source: 'cursor' });
    expect(a.title).toBe('The staging database is on port 5433');
    expect(b.source).toBe('cursor');
    const other = MemoryStore.forHome(dir);
    expect((await other.get(a.id)).text).toContain('5433');
    expect((await other.list()).map((e) => e.id)).toEqual(
      b.createdAt >= a.createdAt ? [b.id, a.id] : [a.id, b.id],
    );
    await other.delete(a.id);
    await expect(store.get(a.id)).rejects.toMatchObject({ code: 'not_found' });
    expect((await store.list()).map((e) => e.id)).toEqual([b.id]);
  });

  it('searches title, text and tags with prefixes and small typos', async () => {
    const store = MemoryStore.forHome(home());
    const db = await store.create({ text: 'The staging database listens on port 5433', tags: ['postgres'] });
    await store.create({ text: 'Deploys happen on Fridays only after review' });
    expect((await store.search('databse')).map((h) => h.entry.id)).toEqual([db.id]);
    expect((await store.search('postg')).map((h) => h.entry.id)).toEqual([db.id]);
    expect(await store.search('kubernetes')).toEqual([]);
    expect(await store.search('')).toHaveLength(2);
  });

  it('refuses empty and oversized text with a hint', async () => {
    const store = MemoryStore.forHome(home());
    const empty = await store.create({ text: '   ' }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(MooringError);
    expect((empty as MooringError).hint).toBeTruthy();
    await expect(store.create({ text: 'x'.repeat(20_001) })).rejects.toMatchObject({ code: 'usage' });
  });

  it('skips a torn last line with a warning and keeps appending on a fresh line', async () => {
    const warnings: string[] = [];
    const store = MemoryStore.forHome(home(), (w) => warnings.push(w));
    const kept = await store.create({ text: 'kept' });
    appendFileSync(store.file, '{"kind":"add","entry":{"id":"torn'); // a crash mid-write
    const after = await store.create({ text: 'after the crash' });
    expect((await store.list()).map((e) => e.id).sort()).toEqual([kept.id, after.id].sort());
    expect(warnings.some((w) => /torn/.test(w))).toBe(true);
    expect(readFileSync(store.file, 'utf8').endsWith('\n')).toBe(true);
  });
});
