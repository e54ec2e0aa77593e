// A second client on an earlier Streamable HTTP session of a server (MCP 2025-11-25 "Transports", Session
// Management: a request that carries the session's `Mcp-Session-Id` reaches that session). Mooring never
// ends such a session itself (no DELETE on close), so a task a 2025 server bound to it can still be
// followed after Mooring restarted (ARCHITECTURE.md, "Tasks"). Same handlers, headers, SSRF guard and
// sign-in as the live session; the caller closes the client when done.
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import type { LogLine } from '@shared/session';
import { isRemoteServer, type RemoteServerConfig, type ServerConfig } from '@shared/config';
import type { DialGuard } from './serverDial';
import { MooringError } from '../errors';
import { MOORING_CLIENT_INFO, MooringClient } from './taskClient';
import { createTransport, type TransportFactory, type TransportHooks } from './transportFactory';

/** What a session's options hold for this (SessionActorOptions has every field). */
export interface ResumeOptions {
  transportFactory?: TransportFactory;
  prepare?: (config: ServerConfig, ctx: { warn: (text: string) => void }) => Promise<ServerConfig>;
  guardFor?: (config: RemoteServerConfig) => DialGuard;
  authProviderFor?: (config: ServerConfig) => TransportHooks['auth'];
  capabilities?: ClientCapabilities;
  configureClient?: (client: Client, server: string) => void;
}

export async function resumeHttpSession(input: {
  config: ServerConfig;
  options: ResumeOptions;
  sessionId: string;
  protocolVersion: string;
  log: (level: LogLine['level'], text: string) => void;
}): Promise<MooringClient> {
  const { config, options: o } = input;
  if (config.transport !== 'http')
    throw new MooringError('usage', `"${config.name}" is not a Streamable HTTP server`);
  const prepared = o.prepare ? await o.prepare(config, { warn: (t) => input.log('warning', t) }) : config;
  const guard = isRemoteServer(config) ? o.guardFor?.(config) : undefined;
  const auth = o.authProviderFor?.(config);
  const transport = await (o.transportFactory ?? createTransport)(prepared, {
    onStderr: () => undefined,
    onGarbage: () => undefined,
    ...(guard ? { guard } : {}),
    ...(auth ? { auth } : {}),
    sessionId: input.sessionId,
  });
  (transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion?.(input.protocolVersion);
  const client = new MooringClient(MOORING_CLIENT_INFO, { capabilities: o.capabilities ?? {} });
  o.configureClient?.(client, config.name);
  client.onerror = (e) => input.log('debug', `resumed session: ${e.message}`);
  // With a session id on the transport, the SDK attaches to that session instead of a new handshake.
  await client.connect(transport);
  return client;
}
