// Pinned tool contracts (docs/data-on-disk.md, "Data on disk"): the first time Mooring sees a tool of a server, it
// pins the parts that decide how the tool is treated — title, description, input schema, annotations — in
// `<home>/tool_pins.json`. When the server later lists the tool differently (a list_changed, a reconnect, a
// new version behind the same command), the tool is "changed": the gate asks before its next call whatever
// its annotations now say, with the diff against the pin (safety/approvalPolicy.ts), and a scoped
// `mooring serve` client does not see it. A person's answer in an approval dialog (or "Accept change" on the
// Tools screen) accepts it: the pin becomes the tool as it is now. "Always allow" pins an approval to a
// fingerprint; this pins every tool, approved or not, so a read-only tool whose description turns into
// instructions, or a destructive tool that turns "read-only", asks too.
//
// Pins are kept per server identity (name and command or URL, safety/toolFingerprint.ts), so a project
// folder's server of the same name as a global one has its own. The file is a JsonFileStore: the app,
// the CLI and `mooring serve` change it under its lock, and every lookup checks it with one stat, so an
// acceptance in the app applies at once in a running `mooring serve` (a `VerdictSource`).
import { join } from 'node:path';
import { z } from 'zod';
import type { ToolChange } from '@shared/approval';
import { JsonFileStore } from '../config/jsonFileStore';
import {
  canonicalJson,
  diffTools,
  sha256Hex,
  snapshotTool,
  type FingerprintedTool,
  type ServerIdentity,
} from './toolFingerprint';

const PinSchema = z.object({
  /** sha256 of the canonical JSON of the pinned fields. */
  sha: z.string(),
  tool: z.object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: z.unknown().optional(),
    annotations: z.record(z.string(), z.unknown()).optional(),
  }),
  at: z.number(),
});
const FileSchema = z.object({ pins: z.record(z.string(), z.record(z.string(), PinSchema)) });
type PinsFile = z.infer<typeof FileSchema>;
type State = PinsFile['pins'];
type Pin = z.infer<typeof PinSchema>;

export const toolPinsPath = (home: string) => join(home, 'tool_pins.json');

/** What the pin says about a tool as a server lists it now. */
export type PinLookup =
  | { status: 'pinned' }
  /** Listed differently from its pin: asks before its next call, whatever its annotations say. */
  | { status: 'changed'; pinnedAt: number; diff: ToolChange[] };

const shas = new WeakMap<FingerprintedTool, string>();
/** The contract's hash, once per definition object (a list_changed replaces the object). */
export function contractSha(tool: FingerprintedTool): string {
  let sha = shas.get(tool);
  if (sha === undefined) {
    sha = sha256Hex(canonicalJson(snapshotTool(tool)));
    shas.set(tool, sha);
  }
  return sha;
}

/** The server's name, readable in the file, and a hash of what it runs or where it connects. */
const serverKey = (identity: ServerIdentity) =>
  `${identity.name} ${sha256Hex(canonicalJson(identity)).slice(0, 16)}`;

const pinOf = (tool: FingerprintedTool, at = Date.now()): Pin => ({
  sha: contractSha(tool),
  tool: snapshotTool(tool) as Pin['tool'],
  at,
});

/** Pins the tools that have none, with the given pins (made once, so memory and file hold the same). */
function pinNew(state: State, key: string, made: Readonly<Record<string, Pin>>): boolean {
  const pins = (state[key] ??= {});
  let added = false;
  for (const [name, pin] of Object.entries(made))
    if (!pins[name]) {
      pins[name] = pin;
      added = true;
    }
  return added;
}

export class ToolPins {
  private state: State = {};
  private version = 0;
  /** Changes of this process not yet written: applied again over what another process wrote. */
  private readonly inflight = new Set<(state: State) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly store: JsonFileStore<PinsFile>;

  private constructor(readonly file: string) {
    this.store = new JsonFileStore<PinsFile>({
      file,
      format: {
        schema: FileSchema,
        empty: () => ({ pins: {} }),
        fileHint: (f) =>
          `Fix ${f} by hand (Mooring has not changed it), or delete it: Mooring pins every tool again as it is listed then.`,
        changeHint: 'The tool pins could not be recorded.',
      },
    });
  }

  static async open(home: string): Promise<ToolPins> {
    const pins = new ToolPins(toolPinsPath(home));
    pins.state = (await pins.store.read()).pins;
    return pins;
  }

  /** Goes up with every change of the pins, here or in another process (one stat): a `VerdictSource`. */
  revision(): number {
    this.refresh();
    return this.version;
  }

  /**
   * What the pin says about the tool as the server lists it now; a tool seen for the first time is pinned
   * as it is (its first sight is its contract).
   */
  lookup(identity: ServerIdentity, tool: FingerprintedTool): PinLookup {
    this.refresh();
    const key = serverKey(identity);
    const pin = this.state[key]?.[tool.name];
    if (!pin) {
      this.see(identity, [tool]);
      return { status: 'pinned' };
    }
    if (pin.sha === contractSha(tool)) return { status: 'pinned' };
    return {
      status: 'changed',
      pinnedAt: pin.at,
      diff: diffTools(
        { identity, tool: pin.tool as FingerprintedTool },
        { identity, tool: snapshotTool(tool) },
      ),
    };
  }

  /** The names of the tools listed differently from their pins; the unpinned ones are pinned now. */
  changed(identity: ServerIdentity, tools: readonly FingerprintedTool[]): string[] {
    this.see(identity, tools);
    const pins = this.state[serverKey(identity)] ?? {};
    return tools.filter((t) => pins[t.name] && pins[t.name]!.sha !== contractSha(t)).map((t) => t.name);
  }

  /** A server listed its tools: each one without a pin is pinned as it is. */
  see(identity: ServerIdentity, tools: readonly FingerprintedTool[]): void {
    this.refresh();
    const key = serverKey(identity);
    const known = this.state[key] ?? {};
    const fresh = tools.filter((t) => !known[t.name]);
    if (fresh.length === 0) return;
    const at = Date.now();
    const made = Object.fromEntries(fresh.map((t) => [t.name, pinOf(t, at)]));
    pinNew(this.state, key, made);
    this.version++;
    this.persist((disk) => void pinNew(disk, key, made));
  }

  /** A person accepted the tool as it is now (an approval dialog's answer, the Tools screen). */
  accept(identity: ServerIdentity, tool: FingerprintedTool): Promise<unknown> {
    const key = serverKey(identity);
    const pin = pinOf(tool);
    const set = (state: State) => void ((state[key] ??= {})[tool.name] = pin);
    set(this.state);
    this.version++;
    this.persist(set);
    return this.queue;
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<unknown> {
    return this.queue;
  }

  /**
   * Takes the file's state when another process changed it (one stat when none did), with this process's
   * changes still being written applied over it.
   */
  private refresh(): void {
    let disk: PinsFile | undefined;
    try {
      disk = this.store.readIfChanged();
    } catch {
      return; // invalid: memory keeps the last valid state, as it does when a change is refused
    }
    if (!disk) return;
    this.state = disk.pins;
    for (const change of this.inflight) change(this.state);
    this.version++;
  }

  /**
   * Memory takes the state this process wrote; the revision moves only when it differs from what memory
   * held (another process pinned meanwhile): a catalog made after this process's own pinning stays valid
   * (calls/callRevision.ts).
   */
  private take(state: State): void {
    const news = canonicalJson(state) !== canonicalJson(this.state);
    this.state = state;
    if (news) this.version++;
  }

  /** Applies the same change to the file as it is now (under its lock); memory then takes the file's state. */
  private persist(change: (disk: State) => void): void {
    const own = (state: State) => change(state);
    this.inflight.add(own);
    this.queue = this.queue
      .then(() =>
        this.store.update((current) => {
          change(current.pins);
          return current;
        }),
      )
      .then(
        (written) => {
          this.inflight.delete(own);
          if (this.inflight.size > 0) return;
          this.take(written.pins); // it may hold what another process pinned meanwhile
        },
        // An invalid file is never overwritten and refuses the change; memory keeps it until the file is fixed.
        () => void this.inflight.delete(own),
      );
  }
}
