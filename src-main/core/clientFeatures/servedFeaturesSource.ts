// The connected servers' prompts, resources, completions and log lines, as Mooring's own server serves
// them to its clients (serve/servedFeatures.ts). The serve room declares the interface it needs
// (serve/servedCore.ts, `ServedFeatures`); this room cannot import it, so the composition root checks that this
// shape satisfies it. Every request goes to the server's live session through the same helpers the app uses
// (prompts.ts, resources.ts), so a server that does not offer a feature is never asked for it.
import type { CompleteRequest, LoggingLevel } from '@modelcontextprotocol/client';
import type { LogLine } from '@shared/session';
import { getPrompt, listPrompts } from './prompts';
import { listResources, readResource, type ResourceSubscriptions } from './resources';
import { offers, type ServerSession } from './serverSession';

export interface ServedFeaturesDeps {
  sessions: () => ServerSession[];
  /** Every log line of every session (the core's `log` event); returns the unsubscribe. */
  onLogLine: (fn: (line: LogLine) => void) => () => void;
  resources: ResourceSubscriptions;
}

function served(session: ServerSession) {
  const caps = () => session.requests.capabilities() ?? {};
  return {
    name: session.name,
    offers: () => ({
      prompts: !!caps().prompts,
      resources: !!caps().resources,
      completions: !!caps().completions,
    }),
    listPrompts: () => listPrompts(session),
    getPrompt: (name: string, args: Record<string, string>) => getPrompt(session, name, args),
    listResources: () => listResources(session),
    readResource: (uri: string) => readResource(session, uri),
    complete: async (params: CompleteRequest['params']) => {
      offers(session);
      return (await session.requests.complete(params)).completion;
    },
  };
}

export function createServedFeatures(deps: ServedFeaturesDeps) {
  return {
    servers: () =>
      deps
        .sessions()
        .filter((s) => s.requests.capabilities())
        .map(served),
    onLog: (fn: (server: string, line: { level: LoggingLevel; text: string }) => void) =>
      deps.onLogLine((line) => {
        if (line.source === 'server') fn(line.server, { level: line.level as LoggingLevel, text: line.text });
      }),
    onChanged: (fn: (what: 'prompts' | 'resources') => void) => {
      const on = (e: { what: 'prompts' | 'resources' }) => fn(e.what);
      deps.resources.on('listChanged', on);
      return () => void deps.resources.off('listChanged', on);
    },
  };
}
