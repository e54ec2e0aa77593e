// The client side of MCP beyond tools (ARCHITECTURE.md, `clientFeatures/`), as one object the core holds:
// the capabilities Mooring declares, the server→client handlers each new connection registers through its
// session (sampling, elicitation, roots, resource notifications; SessionActorOptions `clientHandlers`, so
// they survive reconnects), the broker the UI answers through, and what to do when a session becomes
// ready. A 2026-07-28 server's input_required rounds are fulfilled through these same handlers.
import { ProtocolError, type ClientCapabilities } from '@modelcontextprotocol/client';
import { UI_EXTENSION_ID, UI_MIME_TYPE } from '@shared/appViews';
import type { LogLine } from '@shared/session';
import type { LogLevel } from '@shared/settings';
import { MooringError } from '../errors';
import type { ClientHandlers, ServerRequests } from '../mcp/types';
import { ElicitationService, type ElicitParams } from './elicitation';
import { DEFAULT_INTERACTION_TIMEOUT_MS, InteractionBroker } from './interactionBroker';
import { UrlElicitations } from './urlElicitations';
import { applyLogLevel } from './logLevel';
import { ResourceSubscriptions } from './resources';
import { RootsRegistry } from './roots';
import { SamplingService, USER_REJECTED, type SamplingComplete, type SamplingParams } from './sampling';
import { SamplingBudget, type SamplingBudgetOptions } from './samplingBudget';
import type { ServerSession } from './serverSession';

export interface ClientFeaturesDeps {
  /** Produces a completion for an approved sampling request. Without it Mooring does not offer sampling. */
  complete?: SamplingComplete;
  /** Opens an https URL in the user's browser. Without it Mooring does not offer URL-mode elicitation. */
  openExternal?: (url: string) => Promise<void>;
  /** Where sampling, elicitation and feature notes go: the server's log view. */
  log?: (line: LogLine) => void;
  /** The level a server logs at (its own, else settings.logLevel), read each time its session is ready. */
  logLevel?: (server: string) => LogLevel;
  samplingBudget?: SamplingBudgetOptions;
  /** How long a request waits for the user before it is declined. */
  interactionTimeoutMs?: number;
  /** Roots are offered unless `false` (a host without conversations has no project folder). */
  offerRoots?: boolean;
  /** MCP Apps views are offered only by a host that renders them (the desktop app, browser mode). */
  offerViews?: boolean;
}

export interface ClientFeatures {
  capabilities: ClientCapabilities;
  /** What a server may ask of Mooring, for each new connection of its session. */
  clientHandlers: (server: string, session: ServerRequests) => ClientHandlers;
  /**
   * The handlers of a throwaway session (a connection test): the same capabilities as a real session, so
   * a server lists what it would list there; roots are answered, sampling and forms declined at once
   * (nobody is asked during a test), and nothing is tracked after it closes.
   */
  testClientHandlers: (server: string, session: ServerRequests) => ClientHandlers;
  broker: InteractionBroker;
  sampling: SamplingService;
  roots: RootsRegistry;
  resources: ResourceSubscriptions;
  /** URL-mode flows after their link opened: completion notices, and the -32042 error path's wait. */
  urlElicitations: UrlElicitations;
  /** After a session is (re)connected: its log level, then the resource subscriptions it had. */
  onSessionReady: (session: ServerSession) => Promise<void>;
  /** The user changed settings.logLevel: tell every ready session that offers logging. */
  setLogLevel: (level: LogLevel, sessions: ServerSession[]) => Promise<void>;
  /**
   * One server→client request carried inside a 2026-07-28 task's `inputRequests` (the tasks extension:
   * "the same trust model" as a standalone request), answered by the same services.
   */
  fulfilInputRequest: (
    server: string,
    request: { method: string; params?: Record<string, unknown> },
    signal: AbortSignal,
  ) => Promise<unknown>;
  dispose: () => void;
}

export function createClientFeatures(deps: ClientFeaturesDeps = {}): ClientFeatures {
  const log = deps.log ?? (() => undefined);
  const broker = new InteractionBroker(
    deps.interactionTimeoutMs ? { timeoutMs: deps.interactionTimeoutMs } : {},
  );
  const budget = new SamplingBudget(deps.samplingBudget);
  const sampling = new SamplingService({
    broker,
    budget,
    log,
    complete:
      deps.complete ??
      (() => Promise.reject(new MooringError('usage', 'No model is configured for sampling.'))),
  });
  const elicitation: ElicitationService = new ElicitationService({
    broker,
    log,
    ...(deps.openExternal ? { openExternal: deps.openExternal } : {}),
    onOpened: (server, id) => urlElicitations.noteOpened(server, id),
  });
  const urlElicitations = new UrlElicitations({
    elicitation,
    log,
    timeoutMs: deps.interactionTimeoutMs ?? DEFAULT_INTERACTION_TIMEOUT_MS,
  });
  const roots = new RootsRegistry();
  const resources = new ResourceSubscriptions();

  const capabilities: ClientCapabilities = {
    elicitation: deps.openExternal ? { form: {}, url: {} } : { form: {} },
    ...(deps.offerRoots === false ? {} : { roots: { listChanged: true } }),
    // `tools`: sampling requests may offer the model tools (spec 2025-11-25 "Sampling"; samplingCompletion.ts).
    ...(deps.complete ? { sampling: { tools: {} } } : {}),
    // MCP Apps (extension io.modelcontextprotocol/ui, spec 2026-01-26, "Client<>Server Capability
    // Negotiation"): servers may give their tools interactive views, which a host with a UI renders sandboxed.
    ...(deps.offerViews ? { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } } : {}),
  };

  const complete = deps.complete;
  const clientHandlers = (server: string, session: ServerRequests): ClientHandlers => {
    if (capabilities.roots) roots.track(session, server);
    return {
      ...(complete ? { sampling: (params, signal) => sampling.handle(server, params, signal) } : {}),
      elicitation: (params, signal) => elicitation.handle(server, params, signal).catch(toWireError),
      ...(capabilities.roots ? { roots: () => roots.list(server) } : {}),
      ...resources.handlers(server),
      ...(deps.openExternal ? urlElicitations.handlers(server) : {}),
    };
  };

  const testClientHandlers = (): ClientHandlers => ({
    ...(capabilities.sampling
      ? {
          sampling: () =>
            Promise.reject(
              new ProtocolError(USER_REJECTED, 'Mooring is only testing the connection; nobody was asked.'),
            ),
        }
      : {}),
    elicitation: async () => ({ action: 'decline' as const }),
    ...(capabilities.roots ? { roots: () => roots.list() } : {}),
  });

  const note = (server: string, level: LogLine['level'], text: string) =>
    log({ server, at: Date.now(), source: 'host', level, text });

  return {
    capabilities,
    clientHandlers,
    testClientHandlers,
    broker,
    sampling,
    roots,
    resources,
    urlElicitations,
    async onSessionReady(session) {
      const level = deps.logLevel?.(session.name) ?? 'info';
      await applyLogLevel(session, level).catch((e: Error) =>
        note(session.name, 'warning', `could not set the log level: ${e.message}`),
      );
      const failed = await resources.renew(session);
      if (failed.length) note(session.name, 'warning', `could not renew subscriptions: ${failed.join(', ')}`);
    },
    async setLogLevel(level, sessions) {
      await Promise.all(
        sessions.map((s) =>
          applyLogLevel(s, level).catch((e: Error) =>
            note(s.name, 'warning', `could not set the log level: ${e.message}`),
          ),
        ),
      );
    },
    async fulfilInputRequest(server, request, signal) {
      const params = request.params ?? {};
      if (request.method === 'elicitation/create')
        return elicitation.handle(server, params as ElicitParams, signal).catch(toWireError);
      if (request.method === 'sampling/createMessage' && deps.complete)
        return sampling.handle(server, params as SamplingParams, signal);
      // Asked inside a call, roots are read fresh each time: nothing to wait for when they change.
      if (request.method === 'roots/list' && capabilities.roots) return { roots: roots.list() };
      throw new MooringError(
        'usage',
        `"${server}" asked for ${request.method} inside a task, which Mooring does not offer here`,
      );
    },
    dispose: () => broker.dispose(),
  };
}

/** A local failure answers the server as a JSON-RPC error carrying our message and hint. */
function toWireError(err: unknown): never {
  if (err instanceof MooringError) throw new ProtocolError(-32603, err.message, err.toData());
  throw err;
}

/**
 * The handlers of a host with nobody to ask (the conformance client, scripted runs): every form
 * elicitation is accepted with the schema's defaults (SEP-1034); nothing else is offered.
 */
export function acceptElicitationsWithDefaults(): Pick<ClientFeatures, 'capabilities' | 'clientHandlers'> {
  const features = createClientFeatures({ offerRoots: false });
  features.broker.on('requested', (r) => {
    if (r.kind !== 'elicitation-form') return;
    try {
      features.broker.answer(r.id, {
        kind: 'elicitation-form',
        action: 'accept',
        decidedBy: 'auto:defaults',
      });
    } catch {
      // A required field without a default: nobody can fill it in here.
      features.broker.answer(r.id, {
        kind: 'elicitation-form',
        action: 'decline',
        decidedBy: 'auto:defaults',
      });
    }
  });
  return { capabilities: features.capabilities, clientHandlers: features.clientHandlers };
}
