// What the app says after a server is added whose first connect has not finished: nothing until it has,
// then that it runs, or that it failed — with its Logs a click away. (It said "has not connected yet"
// while the card below already showed the failure.) It follows the servers list the live stream patches
// (api/useLiveEvents.ts), so it waits for the status event, not for time.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { splitErrorDetails } from '@shared/errors';
import type { ServerRow } from '@shared/wire';
import { toast } from '../ui';

/** The one watcher per server name: a server added again (removed before it settled) replaces it. */
const watching = new Map<string, () => void>();

export function toastWhenSettled(o: {
  qc: QueryClient;
  listKey: QueryKey;
  name: string;
  showLogs: (name: string) => void;
}): void {
  // The list may not hold the new server yet (its refetch after the save can come after this call): only a
  // row seen once and then gone was removed meanwhile.
  let seen = false;
  const settled = (): boolean => {
    const rows = o.qc.getQueryData<ServerRow[]>(o.listKey);
    const row = rows?.find((r) => r.config.name === o.name);
    if (row) seen = true;
    else return seen; // removed meanwhile: nothing to say
    const status = row?.status;
    if (status?.state === 'ready') {
      toast({
        tone: 'success',
        title: `${o.name} is running`,
        description: `${status.toolCount} tools. Destructive ones start off (Tools).`,
      });
      return true;
    }
    if (status?.state === 'failed') {
      toast({
        tone: 'danger',
        title: `${o.name} failed to start`,
        description: status.error ? splitErrorDetails(status.error.message).summary : 'Its Logs say why.',
        action: { label: 'Open its Logs', run: () => o.showLogs(o.name) },
      });
      return true;
    }
    return false;
  };
  watching.get(o.name)?.();
  watching.delete(o.name);
  if (settled()) return;
  const unsubscribe = o.qc.getQueryCache().subscribe(() => {
    if (settled()) stop();
  });
  const stop = () => {
    unsubscribe();
    if (watching.get(o.name) === stop) watching.delete(o.name);
  };
  watching.set(o.name, stop);
}
