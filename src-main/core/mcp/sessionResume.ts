// A session of its own on an earlier Streamable HTTP session of a server (MCP 2025-11-25 "Transports",
// Session Management: a request that carries the session's `Mcp-Session-Id` reaches that session). Mooring
// never ends such a session itself (no DELETE on close), so a task a 2025 server bound to it can still be
// followed after Mooring restarted (docs/tasks-and-resources.md, "Tasks"). Same handlers, headers, SSRF guard, sign-in
// and request path (timeout, abort, redaction, metrics, traffic trace) as the live session; the caller
// closes it when done.
import { isRemoteServer, type ServerConfig } from '@shared/config';
import { MooringError } from '../errors';
import type { SessionMetrics } from './metrics';
import { RequestHandler } from './requestHandler';
import type { ConnectionOptions } from './sessionConnection';
import { CONNECT_TIMEOUT_MS } from './sessionConnection';
import type { SessionLog } from './sessionLog';
import { createTransport } from './transportFactory';
import type { ResumedSession } from './types';

export async function resumeHttpSession(input: {
  config: ServerConfig;
  options: ConnectionOptions;
  sessionId: string;
  protocolVersion: string;
  /** The live session's log: the resumed session's lines and traffic go there too. */
  log: SessionLog;
  metrics: SessionMetrics;
}): Promise<ResumedSession> {
  const { config, options: o, log } = input;
  if (config.transport !== 'http' || !isRemoteServer(config))
    throw new MooringError('usage', `"${config.name}" is not a Streamable HTTP server`);
  const prepared = o.prepare ? await o.prepare(config, { warn: (t) => log.host('warning', t) }) : config;
  const guard = o.guardFor?.(config);
  const auth = o.authProviderFor?.(config);
  const transport = await (o.transportFactory ?? createTransport)(prepared, {
    onStderr: () => undefined,
    onGarbage: () => undefined,
    ...(guard ? { guard } : {}),
    ...(auth ? { auth } : {}),
    sessionId: input.sessionId,
  });
  (transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion?.(input.protocolVersion);
  let open = false;
  const requests = new RequestHandler({
    server: config.name,
    timeoutMs: () => config.timeoutSeconds * 1000,
    isReady: () => open,
    whenReady: async () => {
      throw new MooringError('transport_closed', `The resumed session of "${config.name}" is closed`);
    },
    metrics: input.metrics,
    ...(o.redact ? { redact: o.redact } : {}),
  });
  // With a session id on the transport, the SDK attaches to that session instead of a new handshake.
  try {
    await requests.connect({
      transport: log.traced(transport),
      capabilities: o.capabilities ?? {},
      stdio: false,
      attach: true,
      timeoutMs: o.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      handlers: o.clientHandlers?.(config.name, requests) ?? {},
      onToolsListChanged: () => undefined,
      onServerLog: (l) => log.add({ source: 'server', ...l }),
      onClose: () => void (open = false),
      onError: (e) => log.host('debug', `resumed session: ${e.message}`),
    });
  } catch (err) {
    await requests.disconnect();
    throw err;
  }
  open = true;
  return Object.assign(requests, {
    close: async () => {
      open = false;
      await requests.disconnect();
    },
  });
}
