// Builds the transport for one connect attempt. The actor depends on the SDK's Transport interface
// only, so tests can hand it any (depend on an interface, not a class). Each kind of transport has one
// builder (shared/transports.ts names the kinds): a local one gets the process's hooks, a remote one is
// built with the server's dial (serverDial.ts), its only way past the SSRF guard and to the server's
// headers, so a remote transport cannot be written that silently skips either.
import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import { isLocalServer, isRemoteServer, type ServerConfig } from '@shared/config';
import { isLocalTransport, type RemoteTransportKind } from '@shared/transports';
import { MooringError } from '../errors';
import { childEnvironment } from './childEnv';
import { DIRECT_GUARD, serverDial, type DialGuard, type ServerDial } from './serverDial';
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
  /** A stdio server's close: the wait after stdin EOF and after SIGTERM (StdioTransportOptions.closeStageMs). */
  closeStageMs?: number;
  /** The SSRF guard a remote server is dialled through (the core wires safety's); none: DIRECT_GUARD. */
  guard?: DialGuard;
  /** OAuth for remote transports (the auth room): the SDK auth provider, and the wrapper that finishes sign-ins. */
  auth?: TransportAuth;
  /** Streamable HTTP only: join this existing session instead of starting one (mcp/sessionResume.ts). */
  sessionId?: string;
  /** Stdio only: wraps the command line before it spawns (the confine room's sandbox; stdioLauncher.ts). */
  launcher?: StdioLauncher;
}

export type TransportFactory = (config: ServerConfig, hooks: TransportHooks) => Promise<Transport>;

/** What a remote transport is built with: `dial` is required, so no remote kind is built without it. */
export interface RemoteTarget {
  url: URL;
  dial: ServerDial;
  auth?: TransportAuth;
  sessionId?: string;
}

/** One builder per remote kind: a kind added to shared/transports.ts is a compile error here until built. */
const REMOTE_TRANSPORTS: Record<RemoteTransportKind, (t: RemoteTarget) => AuthCapableTransport> = {
  http: (t) =>
    new StreamableHTTPClientTransport(t.url, {
      fetch: authFetch(t),
      ...authOptions(t),
      ...(t.sessionId ? { sessionId: t.sessionId } : {}),
    }),
  sse: (t) => new SSEClientTransport(t.url, { fetch: authFetch(t), ...authOptions(t) }),
};

export const createTransport: TransportFactory = async (config, hooks) => {
  if (isRemoteServer(config)) {
    const target: RemoteTarget = {
      url: new URL(config.url),
      dial: serverDial(config, hooks.guard ?? DIRECT_GUARD),
      ...(hooks.auth ? { auth: hooks.auth } : {}),
      ...(hooks.sessionId ? { sessionId: hooks.sessionId } : {}),
    };
    const transport = REMOTE_TRANSPORTS[config.transport](target);
    // No `requestInit.headers`: the SDK would send them to every host it talks to for this server,
    // authorization servers included. The dial adds them for the server's own origin only.
    return target.auth
      ? target.auth.wrap(transport, { serverUrl: config.url, fetch: target.dial.guardedFetch })
      : transport;
  }
  if (!isLocalServer(config))
    throw new MooringError(
      'config_invalid',
      `Server "${config.name}" has no ${isLocalTransport(config.transport) ? 'command' : 'url'}`,
    );
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
};

function authFetch(t: RemoteTarget): FetchLike {
  return t.auth?.fetch ? t.auth.fetch(t.dial.fetch) : t.dial.fetch;
}

function authOptions(t: RemoteTarget) {
  const a = t.auth;
  if (!a) return {};
  return { authProvider: a.provider, skipIssuerMetadataValidation: a.skipIssuerMetadataValidation === true };
}
