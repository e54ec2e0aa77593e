// `mooring serve --http` for 2026-07-28 clients (docs/decisions/006-protocol-eras.md): that revision is
// stateless — no `initialize`, no session id; every request names its protocol version and client in `_meta`
// and is answered on its own. The SDK's entry (`createMcpHandler`, strict: `legacy: 'reject'`) builds
// Mooring's server for each request; 2025 clients keep the session protocol (httpServer.ts routes them by
// `isLegacyRequest`, the SDK's own classification). Host/Origin checks and the bearer token run in front of
// both, in httpServer.ts: the token's identity and scope reach this entry as the request's `authInfo`.
import {
  createMcpHandler,
  isLegacyRequest,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { ClientIdentity } from './clientScope';
import { createMooringServer, type MooringServerDeps } from './mooringServer';
import { ServedEvents } from './servedEvents';
import { ServedReads } from './servedReads';

export interface ModernHttpEntry {
  /**
   * Whether this request is for the 2026-07-28 entry: a POST that claims the new revision in its `_meta`
   * envelope (or its MCP-Protocol-Version header). Everything else is the 2025 session protocol's.
   */
  isModern(request: Request, parsedBody: unknown): Promise<boolean>;
  /** Serves one 2026-07-28 request for the client the bearer token named. */
  fetch(request: Request, who: ClientIdentity, parsedBody: unknown): Promise<Response>;
  /** Ends every open exchange and listen stream; stops following the core. */
  close(): Promise<void>;
}

/** The identity rides in `authInfo.extra`: the SDK passes it to the per-request factory untouched. */
const identityOf = (authInfo: AuthInfo | undefined): ClientIdentity => {
  const who = authInfo?.extra?.['mooring.identity'] as ClientIdentity | undefined;
  // httpServer.ts always passes one; a request without it gets no tools rather than every tool.
  return who ?? { name: 'unknown client', scope: { tools: [] } };
};

export function createModernHttpEntry(
  deps: MooringServerDeps & { maxBodyBytes: number; onError?: (err: Error) => void },
): ModernHttpEntry {
  // One listener on the core for every per-request server (servedEvents.ts).
  const events = deps.events ?? new ServedEvents(deps.core.tools);
  const reads = deps.reads ?? new ServedReads();
  const handler: McpHttpHandler = createMcpHandler(
    ({ authInfo }) => {
      const who = identityOf(authInfo);
      const conn = createMooringServer({ ...deps, events, reads }, () => who);
      // One instance per request: when the SDK closes it, it stops following the core's catalog.
      const previous = conn.mcp.server.onclose;
      conn.mcp.server.onclose = () => {
        previous?.();
        void conn.close();
      };
      return conn.mcp;
    },
    {
      legacy: 'reject',
      maxRequestBodySize: deps.maxBodyBytes,
      ...(deps.onError ? { onerror: deps.onError } : {}),
    },
  );
  // The core's catalog changed: every open `subscriptions/listen` stream that asked for tools is told. The
  // entry follows the core from its first 2026 request on (a server only 2025 clients use adds nothing).
  let stopFollowing: (() => void) | undefined;
  return {
    isModern: async (request, parsedBody) =>
      request.method === 'POST' && !(await isLegacyRequest(request, parsedBody)),
    fetch: (request, who, parsedBody) => {
      stopFollowing ??= events.onChanged(() => void handler.notify.toolsChanged());
      return handler.fetch(request, {
        authInfo: { token: '', clientId: who.name, scopes: [], extra: { 'mooring.identity': who } },
        parsedBody,
      });
    },
    close: async () => {
      stopFollowing?.();
      await handler.close();
    },
  };
}
