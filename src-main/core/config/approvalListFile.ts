// The shape both approval files share, `{ "version": 1, "approvals": [ … ] }` (approvals.json and
// workspace-approvals.json): a list of entries, each unique by a key, kept through JsonFileStore
// (docs/data-on-disk.md, "Data on disk"). The stores hold the map in memory (lookups are on the call path),
// check with one stat before each lookup whether another process changed the file (`readIfChanged`),
// and change the file with `update`, which works on the file as it is under its lock.
import { z } from 'zod';
import { JsonFileStore } from './jsonFileStore';

export class ApprovalListFile<E> {
  private readonly store: JsonFileStore<{ version: 1; approvals: E[] }, { version: 1; approvals: unknown[] }>;

  constructor(
    readonly file: string,
    private readonly opts: {
      entry: z.ZodType<E, unknown>;
      key: (e: E) => string;
      /** What deleting the file means, e.g. "delete it to forget every approval". */
      fileHint: (file: string) => string;
      changeHint: string;
    },
  ) {
    this.store = new JsonFileStore({
      file,
      format: {
        schema: z.object({ version: z.literal(1), approvals: z.array(opts.entry) }).strict(),
        empty: () => ({ version: 1 as const, approvals: [] }),
        fileHint: opts.fileHint,
        changeHint: opts.changeHint,
      },
    });
  }

  /** The entries by key; a missing file is empty, an invalid one a `config_invalid` error with its place. */
  async read(): Promise<Map<string, E>> {
    return this.toMap((await this.store.read()).approvals);
  }

  /** The entries when the file changed since this process last read or wrote it, else undefined. */
  readIfChanged(): Map<string, E> | undefined {
    const doc = this.store.readIfChanged();
    return doc && this.toMap(doc.approvals);
  }

  /** Applies `mutate` to the entries on disk now and writes them; returns the entries as written. */
  async update(mutate: (m: Map<string, E>) => void): Promise<Map<string, E>> {
    const written = await this.store.update(({ approvals }) => {
      const fresh = this.toMap(approvals);
      mutate(fresh);
      return { version: 1, approvals: [...fresh.values()] };
    });
    return this.toMap(written.approvals);
  }

  private toMap(entries: E[]): Map<string, E> {
    return new Map(entries.map((e) => [this.opts.key(e), e]));
  }
}
