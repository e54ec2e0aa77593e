// The core's events as Mooring's own server needs them, with one listener on the core per server process,
// however many clients connect (ARCHITECTURE.md, "The core, by room": serve/). Each HTTP session and each
// call in flight used to add its own listener to the tools service; a thousand sessions left a thousand
// listeners (and the servers they held) on the core. Here a session or a call registers in a map, and the
// one listener dispatches: by call id for a call's lifecycle, to every session for a catalog change.
import type { ToolCallEvent } from '../calls/toolCallRunner';
import type { ToolService } from '../calls/toolService';

type Tools = Pick<ToolService, 'on' | 'off'>;

export class ServedEvents {
  private readonly changed = new Set<() => void>();
  private readonly calls = new Map<string, (e: ToolCallEvent) => void>();
  private listening = { changed: false, calls: false };

  constructor(private readonly tools: Tools) {}

  /** `fn` runs when the core's catalog changed; returns the unsubscribe. */
  onChanged(fn: () => void): () => void {
    this.changed.add(fn);
    if (!this.listening.changed) {
      this.tools.on('changed', this.fireChanged);
      this.listening.changed = true;
    }
    return () => {
      this.changed.delete(fn);
      if (!this.changed.size && this.listening.changed) {
        this.tools.off('changed', this.fireChanged);
        this.listening.changed = false;
      }
    };
  }

  /** `fn` gets the lifecycle events of the call `id` only; returns the unsubscribe. */
  onCall(id: string, fn: (e: ToolCallEvent) => void): () => void {
    this.calls.set(id, fn);
    if (!this.listening.calls) {
      this.tools.on('toolCall', this.fireCall);
      this.listening.calls = true;
    }
    return () => {
      if (this.calls.get(id) === fn) this.calls.delete(id);
      if (!this.calls.size && this.listening.calls) {
        this.tools.off('toolCall', this.fireCall);
        this.listening.calls = false;
      }
    };
  }

  /** How many sessions and calls are registered (for tests: nothing may stay behind a closed session). */
  size(): { sessions: number; calls: number } {
    return { sessions: this.changed.size, calls: this.calls.size };
  }

  private readonly fireChanged = () => {
    for (const fn of [...this.changed]) fn();
  };

  private readonly fireCall = (e: ToolCallEvent) => this.calls.get(e.id)?.(e);
}
