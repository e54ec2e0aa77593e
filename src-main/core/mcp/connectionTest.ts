// `mooring mcp test` and the UI's Test button: a handshake and tools/list under a hard ceiling,
// on a throwaway session that never touches the pool's warm one.
import type { ServerConfig } from '@shared/config';
import type { ConnectionTestResultView } from '@shared/wire';
import { MooringError, toErrorData } from '../errors';
import type { PoolActorOptions } from './sessionPool';
import { CONNECT_TIMEOUT_MS } from './sessionConnection';
import { SessionActor } from './sessionActor';

/** As long as a session's own start may take: a server the app starts (npx fetching a package, a busy
 * machine) never fails its test for being slower than the test allows. */
export const TEST_CEILING_MS = CONNECT_TIMEOUT_MS;

/** The shape crosses to the UI as-is (shared/wire.ts). */
export type ConnectionTestResult = ConnectionTestResultView;

export async function testConnection(
  config: ServerConfig,
  opts: PoolActorOptions & { ceilingMs?: number } = {},
): Promise<ConnectionTestResult> {
  const ceiling = opts.ceilingMs ?? TEST_CEILING_MS;
  const actor = new SessionActor({ ...opts, config, connectTimeoutMs: ceiling });
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      actor.start(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new MooringError(
                'timeout',
                `No answer from "${config.name}" within ${ceiling / 1000} s`,
                'Check that the command starts an MCP server, or that the URL points at one.',
              ),
            ),
          ceiling,
        );
      }),
    ]);
    const tools = actor.tools().map((t) => t.name);
    const status = actor.status();
    return {
      ok: true,
      tool_count: tools.length,
      tools,
      latency_ms: Math.round(performance.now() - started),
      ...(status.serverInfo ? { server: status.serverInfo } : {}),
      ...(status.protocolVersion ? { protocol_version: status.protocolVersion } : {}),
    };
  } catch (err) {
    const e = toErrorData(err);
    return {
      ok: false,
      latency_ms: Math.round(performance.now() - started),
      error: e.message,
      code: e.code,
      ...(e.hint ? { hint: e.hint } : {}),
    };
  } finally {
    clearTimeout(timer);
    await actor.close();
  }
}
