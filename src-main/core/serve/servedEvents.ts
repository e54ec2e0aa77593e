// The core's catalog changes as Mooring's own server needs them, with one listener on the core per server
// process, however many clients connect (ARCHITECTURE.md, "The core, by room": serve/). Each HTTP session
// used to add its own listener to the tools service; a thousand sessions left a thousand listeners (and
// the servers they held) on the core. Here a session registers in a set, and the one listener tells each.
// (A call's own lifecycle comes with the call, through `onPhase`.)
import type { ToolService } from '../calls/toolService';

type Tools = Pick<ToolService, 'on' | 'off'>;

export class ServedEvents {
  private readonly changed = new Set<() => void>();
  private listening = false;

  constructor(private readonly tools: Tools) {}

  /** `fn` runs when the core's catalog changed; returns the unsubscribe. */
  onChanged(fn: () => void): () => void {
    this.changed.add(fn);
    if (!this.listening) {
      this.tools.on('changed', this.fireChanged);
      this.listening = true;
    }
    return () => {
      this.changed.delete(fn);
      if (!this.changed.size && this.listening) {
        this.tools.off('changed', this.fireChanged);
        this.listening = false;
      }
    };
  }

  /** How many connections follow the catalog now (a connection that ended must not be among them). */
  get size(): number {
    return this.changed.size;
  }

  private readonly fireChanged = () => {
    for (const fn of [...this.changed]) fn();
  };
}
