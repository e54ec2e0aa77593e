// Builds the transport for one connect attempt. The actor depends on the SDK's Transport interface
// only, so tests can hand it any (depend on an interface, not a class).
import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '@shared/config';
import { MooringError } from '../errors';
import { withServerHeaders } from './serverHeaders';
import { childEnvironment } from './childEnv';
import type { StdioLauncher } from './stdioLauncher';
import { StdioTransport } from './stdioTransport';

/** A transport that can redeem an authorization callback (StreamableHTTP and SSE both can). */
export type AuthCapableTransport = Transport & { finishAuth(params: URLSearchParams): Promise<void> };

/**
 * What the transport factory needs to put OAuth on a remote transport. Declared here, by the session
 * room that uses it; the auth room implements it (auth/authTransport.ts), so sessions never import auth.
 */
export interface TransportAuth {
  /** Passed to the SDK transport as its `authProvider`. */
  provider: OAuthClientProvider;
  /** Set when the provider checks the metadata issuer itself (see OAuthProviderOptions.issuerCheck). */
  skipIssuerMetadataValidation?: boolean;
  /** Wraps the transport's fetch (auth/refreshOnce.ts: one refresh per refresh token). */
  fetch?: (inner: FetchLike) => FetchLike;
  /** Makes `transport` finish browser sign-ins and refresh early; returns the same object. */
  wrap<T extends AuthCapableTransport>(transport: T, opts: { serverUrl: string; fetch?: FetchLike }): T;
}

export interface TransportHooks {
  /** One line of a stdio server's stderr, already bounded (StderrLines). */
  onStderr: (line: string) => void;
  onGarbage: (info: { reason: 'not-json-rpc' | 'oversized'; sample: string; bytes: number }) => void;
  /** A fetch for remote transports (the SSRF guard's, when the core wires one). */
  fetch?: FetchLike;
  /** OAuth for remote transports (the auth room): the SDK auth provider, and the wrapper that finishes sign-ins. */
  auth?: TransportAuth;
  /** A stdio server's close: the wait after stdin EOF and after SIGTERM (StdioTransportOptions.closeStageMs). */
  closeStageMs?: number;
  /** Streamable HTTP only: join this existing session instead of starting one (mcp/sessionResume.ts). */
  sessionId?: string;
  /** Stdio only: wraps the command line before it spawns (the confine room's sandbox; stdioLauncher.ts). */
  launcher?: StdioLauncher;
}

export type TransportFactory = (config: ServerConfig, hooks: TransportHooks) => Promise<Transport>;

export const createTransport: TransportFactory = async (config, hooks) => {
  switch (config.transport) {
    case 'stdio': {
      if (!config.command) throw new MooringError('config_invalid', `Server "${config.name}" has no command`);
      const plain = {
        command: config.command,
        args: config.args,
        env: await childEnvironment(config.env),
        ...(config.cwd ? { cwd: config.cwd } : {}),
      };
      const launched = await hooks.launcher?.launch(config, plain, hooks.onStderr);
      const { release, ...run } = launched ?? { ...plain, release: undefined };
      return new StdioTransport({
        maxLineBytes: config.maxMessageMB * 1024 * 1024,
        ...run,
        ...(release ? { onExit: release } : {}),
        onStderr: hooks.onStderr,
        onGarbage: hooks.onGarbage,
        ...(hooks.closeStageMs !== undefined ? { closeStageMs: hooks.closeStageMs } : {}),
      });
    }
    // No `requestInit.headers`: the SDK would send them to every host it talks to for this server,
    // authorization servers included. withServerHeaders adds them for the server's own origin only.
    case 'http':
      return withAuth(
        new StreamableHTTPClientTransport(new URL(config.url!), {
          fetch: serverFetch(config, hooks),
          ...authOptions(hooks),
          ...(hooks.sessionId ? { sessionId: hooks.sessionId } : {}),
        }),
        config,
        hooks,
      );
    case 'sse':
      return withAuth(
        new SSEClientTransport(new URL(config.url!), {
          fetch: serverFetch(config, hooks),
          ...authOptions(hooks),
        }),
        config,
        hooks,
      );
  }
};

function serverFetch(config: ServerConfig, hooks: TransportHooks): FetchLike {
  const f = withServerHeaders(hooks.fetch ?? ((url, init) => fetch(url, init)), {
    serverUrl: config.url!,
    headers: config.headers,
  });
  return hooks.auth?.fetch ? hooks.auth.fetch(f) : f;
}

function authOptions(hooks: TransportHooks) {
  const a = hooks.auth;
  if (!a) return {};
  return { authProvider: a.provider, skipIssuerMetadataValidation: a.skipIssuerMetadataValidation === true };
}

function withAuth<T extends StreamableHTTPClientTransport | SSEClientTransport>(
  transport: T,
  config: ServerConfig,
  hooks: TransportHooks,
): T {
  if (!hooks.auth) return transport;
  return hooks.auth.wrap(transport, {
    serverUrl: config.url!,
    ...(hooks.fetch ? { fetch: hooks.fetch } : {}),
  });
}
