// The tool handles of one session. A handle is created once per tool name and updated in place on
// every list (reconnect, list_changed, keepalive), so whoever holds it keeps a valid object.
import { MooringError } from '../errors';
import type { CallOptions, CallToolResult, Tool, ToolHandle, ToolsChange } from './types';

type Caller = (tool: string, args: Record<string, unknown>, opts?: CallOptions) => Promise<CallToolResult>;

class Handle implements ToolHandle {
  removed = false;
  constructor(
    readonly server: string,
    readonly name: string,
    public definition: Tool,
    private readonly caller: Caller,
  ) {}
  call(args: Record<string, unknown>, opts?: CallOptions): Promise<CallToolResult> {
    if (this.removed)
      return Promise.reject(
        new MooringError(
          'not_found',
          `Tool "${this.name}" is no longer offered by "${this.server}"`,
          'The server removed it; refresh the tool list.',
        ),
      );
    return this.caller(this.name, args, opts);
  }
}

const shape = (t: Tool) =>
  JSON.stringify([t.title, t.description, t.inputSchema, t.outputSchema, t.annotations]);

export class ToolRegistry {
  private handles = new Map<string, Handle>();
  private shapes = new Map<string, string>();

  constructor(
    private readonly server: string,
    private readonly caller: Caller,
  ) {}

  active(): ToolHandle[] {
    return [...this.handles.values()].filter((h) => !h.removed);
  }

  get(name: string): ToolHandle | undefined {
    return this.handles.get(name);
  }

  apply(tools: Tool[]): ToolsChange {
    const change: ToolsChange = { server: this.server, added: [], removed: [], changed: [] };
    const seen = new Set<string>();
    for (const t of tools) {
      seen.add(t.name);
      const s = shape(t);
      const h = this.handles.get(t.name);
      if (!h) {
        this.handles.set(t.name, new Handle(this.server, t.name, t, this.caller));
        change.added.push(t.name);
      } else {
        if (h.removed) change.added.push(t.name);
        else if (this.shapes.get(t.name) !== s) change.changed.push(t.name);
        h.definition = t;
        h.removed = false;
      }
      this.shapes.set(t.name, s);
    }
    for (const [name, h] of this.handles)
      if (!seen.has(name) && !h.removed) {
        h.removed = true;
        change.removed.push(name);
      }
    return change;
  }
}
