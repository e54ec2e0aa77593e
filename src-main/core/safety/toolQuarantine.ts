// Keeps new tools disabled until the user enables them (docs/data-on-disk.md, "Data on disk"), across restarts:
// the tools a server has shown before are remembered in `<home>/known_tools.json`, so a tool that appeared
// while Mooring was closed is as new as one that arrived through list_changed. The first listing of a
// server is its baseline (the user configured it knowingly); after that, a new tool that is not
// readOnlyHint:true is quarantined (newToolsToDisable decides), and the catalog treats it as excluded with
// a reason. The app and `mooring serve` both observe servers: each change is applied again to the file as
// it is under its lock (JsonFileStore), so neither process erases what the other recorded, and the tools
// service checks the file (one stat, `refresh`) before it uses its catalog or calls a tool, so a tool the
// user enabled or a tool held back in another process counts here at the next call.
//
// A server added through Mooring (the form, the JSON view, an import, the CLI) is recorded as new with its
// default safe set pending: its first listing is the baseline, and the configured-servers service then
// turns its destructive tools off (services/configuredServers.ts). The mark is in the file, so a server
// added by `mooring mcp add` gets the safe set in whichever process first connects it.
import { join } from 'node:path';
import { z } from 'zod';
import { JsonFileStore } from '../config/jsonFileStore';
import { newToolsToDisable, type ListedTool } from './newToolPolicy';

const FileSchema = z.object({
  servers: z.record(
    z.string(),
    z.object({
      known: z.array(z.string()),
      quarantined: z.array(z.string()),
      /** Added through Mooring and not yet connected: the default safe set is still to be applied. */
      safeSetPending: z.boolean().optional(),
    }),
  ),
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
  if (entry.safeSetPending && entry.known.length === 0) {
    // A server just added: its first listing is the baseline; the safe set, not the quarantine, applies.
    entry.known = tools.map((t) => t.name);
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

function markNew(state: State, server: string): void {
  state[server] = { known: [], quarantined: [], safeSetPending: true };
}

function markApplied(state: State, server: string): void {
  const entry = state[server];
  if (entry) delete entry.safeSetPending;
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
    const q = new ToolQuarantine(knownToolsPath(home), {});
    q.state = (await q.store.read()).servers;
    return q;
  }

  /** Records a server's current tools; returns the names newly quarantined by this listing. */
  observe(server: string, tools: readonly ListedTool[]): string[] {
    const before = JSON.stringify(this.state[server] ?? null);
    const fresh = observeInto(this.state, server, tools);
    if (JSON.stringify(this.state[server]) !== before)
      this.persist((disk) => void observeInto(disk, server, tools));
    return fresh;
  }

  /** A server was just added through Mooring: its first listing is a baseline and its safe set is pending. */
  expectNewServer(server: string): void {
    markNew(this.state, server);
    this.persist((disk) => markNew(disk, server));
  }

  /**
   * Whether the server's default safe set is still to be applied. Reads the file (another process — the
   * CLI's `mcp add` — may have added the server), unless a change of this process is still being written.
   */
  async safeSetPending(server: string): Promise<boolean> {
    if (this.pending === 0) {
      const disk = await this.store.read().catch(() => undefined);
      if (disk && this.pending === 0) this.state = disk.servers;
    }
    return this.state[server]?.safeSetPending === true;
  }

  /** The safe set was applied: the mark goes. */
  safeSetApplied(server: string): void {
    markApplied(this.state, server);
    this.persist((disk) => markApplied(disk, server));
  }

  /**
   * Takes the file's state when another process changed it (one stat when none did). True when a tool's
   * quarantine changed, so what was made with the old state (catalogs, resolved names) must be made again.
   * Not while a change of this process is still being written: that write adopts the file's state after.
   */
  refresh(): boolean {
    if (this.pending > 0) return false;
    let disk: KnownTools | undefined;
    try {
      disk = this.store.readIfChanged();
    } catch {
      return false; // invalid: memory keeps the last valid state, as it does when a change is refused
    }
    if (!disk || this.pending > 0) return false;
    const held = (state: State) =>
      JSON.stringify(
        Object.keys(state)
          .sort()
          .map((name) => [name, state[name]!.quarantined]),
      );
    const changed = held(disk.servers) !== held(this.state);
    this.state = disk.servers;
    return changed;
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
