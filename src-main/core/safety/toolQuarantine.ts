// Keeps new tools disabled until the user enables them (issue 4), across restarts: the tools a server
// has shown before are remembered in `<home>/known_tools.json`, so a tool that appeared while Mooring was
// closed is as new as one that arrived through list_changed. The first listing of a server is its
// baseline (the user configured it knowingly); after that, a new tool that is not readOnlyHint:true is
// quarantined (newToolsToDisable decides), and the catalog treats it as excluded with a reason.
import { join } from 'node:path';
import { z } from 'zod';
import { readTextIfExists, writeJsonAtomic } from '../config/atomicJson';
import { MooringError } from '../errors';
import { newToolsToDisable, type ListedTool } from './newToolPolicy';

const FileSchema = z.object({
  servers: z.record(z.string(), z.object({ known: z.array(z.string()), quarantined: z.array(z.string()) })),
});
type State = z.infer<typeof FileSchema>['servers'];

export const knownToolsPath = (home: string) => join(home, 'known_tools.json');

export class ToolQuarantine {
  private queue: Promise<unknown> = Promise.resolve();
  private constructor(
    readonly file: string,
    private state: State,
  ) {}

  static async open(home: string): Promise<ToolQuarantine> {
    const file = knownToolsPath(home);
    const text = await readTextIfExists(file);
    if (text === null) return new ToolQuarantine(file, {});
    let parsed: z.infer<typeof FileSchema>;
    try {
      parsed = FileSchema.parse(JSON.parse(text));
    } catch (err) {
      throw new MooringError(
        'config_invalid',
        `${file} is not valid: ${(err as Error).message.split('\n')[0]}`,
        `Delete ${file}: Mooring rebuilds it (new tools will be trusted as a baseline once).`,
      );
    }
    return new ToolQuarantine(file, parsed.servers);
  }

  /** Records a server's current tools; returns the names newly quarantined by this listing. */
  observe(server: string, tools: readonly ListedTool[]): string[] {
    const entry = this.state[server];
    if (!entry) {
      this.state[server] = { known: tools.map((t) => t.name), quarantined: [] };
      this.persist();
      return [];
    }
    const previous = entry.known.map((name) => ({ name }));
    const fresh = newToolsToDisable(previous, tools);
    const known = new Set(entry.known);
    const added = tools.filter((t) => !known.has(t.name)).map((t) => t.name);
    if (!added.length) return [];
    entry.known.push(...added);
    entry.quarantined.push(...fresh.filter((n) => !entry.quarantined.includes(n)));
    this.persist();
    return fresh;
  }

  quarantined(server: string): string[] {
    return this.state[server]?.quarantined ?? [];
  }

  /** The user enabled the tool: it is no longer quarantined. */
  release(server: string, tool: string): void {
    const entry = this.state[server];
    if (!entry) return;
    entry.quarantined = entry.quarantined.filter((t) => t !== tool);
    this.persist();
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<unknown> {
    return this.queue;
  }

  private persist(): void {
    const snapshot = { servers: structuredClone(this.state) };
    this.queue = this.queue.then(() => writeJsonAtomic(this.file, snapshot)).catch(() => undefined);
  }
}
