// Keeps new tools disabled until the user enables them (ARCHITECTURE.md, "Data on disk"), across restarts:
// the tools a server has shown before are remembered in `<home>/known_tools.json`, so a tool that appeared
// while Mooring was closed is as new as one that arrived through list_changed. The first listing of a
// server is its baseline (the user configured it knowingly); after that, a new tool that is not
// readOnlyHint:true is quarantined (newToolsToDisable decides), and the catalog treats it as excluded with
// a reason. The app and `mooring serve` both observe servers: each change is applied again to the file as
// it is under its lock (JsonFileStore), so neither process erases what the other recorded.
import { join } from 'node:path';
import { z } from 'zod';
import { JsonFileStore } from '../config/jsonFileStore';
import { newToolsToDisable, type ListedTool } from './newToolPolicy';

const FileSchema = z.object({
  servers: z.record(z.string(), z.object({ known: z.array(z.string()), quarantined: z.array(z.string()) })),
});
type KnownTools = z.infer<typeof FileSchema>;
type State = KnownTools['servers'];

export const knownToolsPath = (home: string) => join(home, 'known_tools.json');

const knownToolsFile = (file: string) =>
  new JsonFileStore<KnownTools>({
    file,
    format: {
      schema: FileSchema,
      empty: () => ({ servers: {} }),
      fileHint: (f) =>
        `Fix ${f} by hand (Mooring has not changed it), or delete it: Mooring rebuilds it (new tools will be trusted as a baseline once).`,
      changeHint: 'The known tools could not be recorded.',
    },
  });

/** Records a listing in `state`; returns the names it quarantines. */
function observeInto(state: State, server: string, tools: readonly ListedTool[]): string[] {
  const entry = state[server];
  if (!entry) {
    state[server] = { known: tools.map((t) => t.name), quarantined: [] };
    return [];
  }
  const fresh = newToolsToDisable(
    entry.known.map((name) => ({ name })),
    tools,
  );
  const known = new Set(entry.known);
  entry.known.push(...tools.filter((t) => !known.has(t.name)).map((t) => t.name));
  entry.quarantined.push(...fresh.filter((n) => !entry.quarantined.includes(n)));
  return fresh;
}

function releaseFrom(state: State, server: string, tool: string): void {
  const entry = state[server];
  if (entry) entry.quarantined = entry.quarantined.filter((t) => t !== tool);
}

export class ToolQuarantine {
  private readonly store: JsonFileStore<KnownTools>;
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;

  private constructor(
    readonly file: string,
    /** What the catalog reads on every build, so it stays in memory; the file follows. */
    private state: State,
  ) {
    this.store = knownToolsFile(file);
  }

  static async open(home: string): Promise<ToolQuarantine> {
    const file = knownToolsPath(home);
    return new ToolQuarantine(file, (await knownToolsFile(file).read()).servers);
  }

  /** Records a server's current tools; returns the names newly quarantined by this listing. */
  observe(server: string, tools: readonly ListedTool[]): string[] {
    const before = JSON.stringify(this.state[server] ?? null);
    const fresh = observeInto(this.state, server, tools);
    if (JSON.stringify(this.state[server]) !== before)
      this.persist((disk) => void observeInto(disk, server, tools));
    return fresh;
  }

  quarantined(server: string): string[] {
    return this.state[server]?.quarantined ?? [];
  }

  /** The user enabled the tool: it is no longer quarantined. */
  release(server: string, tool: string): void {
    if (!this.state[server]) return;
    releaseFrom(this.state, server, tool);
    this.persist((disk) => releaseFrom(disk, server, tool));
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<unknown> {
    return this.queue;
  }

  /**
   * Applies the same change to the file as it is now. Once nothing more is queued, the memory takes the
   * file's state, which includes what other processes recorded (not sooner: a change still queued here
   * would vanish from memory until its write).
   */
  private persist(change: (disk: State) => void): void {
    this.pending++;
    this.queue = this.queue
      .then(() =>
        this.store.update((current) => {
          change(current.servers);
          return current;
        }),
      )
      .then(
        (written) => {
          if (--this.pending === 0) this.state = written.servers;
        },
        // An invalid file is never overwritten and refuses the change; memory keeps the change, so
        // the process behaves the same until the file is fixed.
        () => void this.pending--,
      );
  }
}
