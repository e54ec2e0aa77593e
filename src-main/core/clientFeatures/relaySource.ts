// The connected servers' prompts, resources, completions and log lines, as Mooring's own server relays
// them to its clients (serve/featuresRelay.ts). The serve room declares the interface it needs
// (serve/servedCore.ts, `RelaySource`); this room cannot import it, so the composition root checks that this
// shape satisfies it. Every request goes to the server's live session through the same helpers the app uses
// (prompts.ts, resources.ts), so a server that does not offer a feature is never asked for it.
import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
} from '@modelcontextprotocol/client';
import type { LogLine } from '@shared/session';
import { getPrompt, listPrompts } from './prompts';
import { listResources, readResource, type ResourceSubscriptions } from './resources';
import { FEATURE_TIMEOUT_MS, onSession, type ServerSession } from './serverSession';

export interface RelaySourceDeps {
  sessions: () => ServerSession[];
  /** Every log line of every session (the core's `log` event); returns the unsubscribe. */
  onLogLine: (fn: (line: LogLine) => void) => () => void;
  resources: ResourceSubscriptions;
}

export interface RelayedServer {
  readonly name: string;
  offers(): { prompts: boolean; resources: boolean; completions: boolean };
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult>;
  listResources(): Promise<Resource[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  complete(params: CompleteRequest['params']): Promise<CompleteResult['completion']>;
}

export interface RelaySource {
  servers(): RelayedServer[];
  onLog(fn: (server: string, line: { level: LoggingLevel; text: string }) => void): () => void;
  onChanged(fn: (what: 'prompts' | 'resources') => void): () => void;
}

function relayed(session: ServerSession): RelayedServer {
  const caps = () => session.sdkClient()?.getServerCapabilities() ?? {};
  return {
    name: session.name,
    offers: () => ({
      prompts: !!caps().prompts,
      resources: !!caps().resources,
      completions: !!caps().completions,
    }),
    listPrompts: () => listPrompts(session),
    getPrompt: (name, args) => getPrompt(session, name, args),
    listResources: () => listResources(session),
    readResource: (uri) => readResource(session, uri),
    complete: async (params) =>
      (
        await onSession(session, 'completion/complete', (c) =>
          c.complete(params, { timeout: FEATURE_TIMEOUT_MS }),
        )
      ).completion,
  };
}

export function createRelaySource(deps: RelaySourceDeps): RelaySource {
  return {
    servers: () =>
      deps
        .sessions()
        .filter((s) => s.sdkClient())
        .map(relayed),
    onLog: (fn) =>
      deps.onLogLine((line) => {
        if (line.source === 'server') fn(line.server, { level: line.level as LoggingLevel, text: line.text });
      }),
    onChanged: (fn) => {
      const on = (e: { what: 'prompts' | 'resources' }) => fn(e.what);
      deps.resources.on('listChanged', on);
      return () => void deps.resources.off('listChanged', on);
    },
  };
}
