import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServerRow } from '@shared/wire';
import { useToasts } from '../ui/Toast';
import { toastWhenSettled } from './serverAddedToast';

const KEY = ['servers', 'list'];
const row = (name: string, status?: Partial<NonNullable<ServerRow['status']>>) =>
  ({ config: { name }, ...(status ? { status } : {}) }) as unknown as ServerRow;
const titles = () => useToasts.getState().items.map((t) => t.title);

describe('the toast after a server is added', () => {
  let qc: QueryClient;
  beforeEach(() => {
    qc = new QueryClient();
    useToasts.setState({ items: [] });
  });
  const watch = (name: string) => toastWhenSettled({ qc, listKey: KEY, name, showLogs: () => undefined });

  it('waits for a server the list does not hold yet (its refetch comes after the save), then says it failed', () => {
    qc.setQueryData(KEY, [row('other', { state: 'ready' })]);
    watch('broken');
    expect(titles()).toEqual([]);
    qc.setQueryData(KEY, [row('other', { state: 'ready' }), row('broken', { state: 'connecting' })]);
    expect(titles()).toEqual([]);
    qc.setQueryData(KEY, [
      row('other', { state: 'ready' }),
      row('broken', { state: 'failed', error: { code: 'connect_failed', message: 'exited with code 1' } }),
    ]);
    expect(titles()).toEqual(['broken failed to start']);
  });

  it('says it once for a server added, removed before the list held it, and added again', () => {
    qc.setQueryData(KEY, []);
    watch('x');
    watch('x');
    qc.setQueryData(KEY, [row('x', { state: 'ready', toolCount: 2 })]);
    expect(titles()).toEqual(['x is running']);
  });

  it('says nothing of a server removed before it settled', () => {
    qc.setQueryData(KEY, [row('gone', { state: 'connecting' })]);
    watch('gone');
    qc.setQueryData(KEY, []);
    qc.setQueryData(KEY, [row('gone', { state: 'ready', toolCount: 3 })]);
    expect(titles()).toEqual([]);
  });
});
