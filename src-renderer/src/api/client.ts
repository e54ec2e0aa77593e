// One client for both hosts: the preload's IPC bridge in Electron, HTTP + server-sent events
// in browser mode. No batching: a call waiting for approval must not hold up the answer to it.
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink, type TRPCLink } from '@trpc/client';
import { ipcLink } from './ipcLink';
import type { MooringBridge } from '@shared/ipc';
import type { AppRouter } from './routerTypes';

declare global {
  interface Window {
    mooring?: MooringBridge;
  }
}

export function createLink(win: Window = window): TRPCLink<AppRouter> {
  if (win.mooring) return ipcLink<AppRouter>(win.mooring);
  const url = `${win.location.origin}/trpc`;
  return splitLink({
    condition: (op) => op.type === 'subscription',
    true: httpSubscriptionLink({ url }),
    false: httpLink({ url }),
  });
}

export const createClient = (win: Window = window) =>
  createTRPCClient<AppRouter>({ links: [createLink(win)] });
export type MooringClient = ReturnType<typeof createClient>;
