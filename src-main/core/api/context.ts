// What every procedure of the router gets: the core and the small views the UI needs on top of it.
import type { MooringCore } from '../mooringCore';
import type { ToolCallEvent } from '@shared/toolCall';
import { StatusHistory } from './statusHistory';

export interface ApiContext {
  core: MooringCore;
  history: StatusHistory;
}

/**
 * One context per host (Electron window, browser-mode server): the history starts recording now, so
 * Diagnostics shows the transitions since the host started. Call `dispose` when the host stops.
 */
export function createApiContext(core: MooringCore): ApiContext & { dispose: () => void } {
  const history = new StatusHistory();
  const onStatus = history.record.bind(history);
  // Metrics move when a call ends, not only when the state changes: sample them then.
  const onCall = (e: ToolCallEvent) => {
    if (e.phase !== 'done' && e.phase !== 'failed') return;
    const s = core.servers.statuses().find((x) => x.name === e.server);
    if (s) history.record(s);
  };
  const subscriptions = [core.on('status', onStatus), core.on('toolCall', onCall)];
  for (const s of core.servers.statuses()) history.record(s);
  return {
    core,
    history,
    dispose: () => subscriptions.forEach((s) => void s.dispose()),
  };
}
