// The packaged app as an MCP server (ARCHITECTURE.md, "Processes and entry points"): `Mooring --mcp-server`
// in a client's config (Claude Desktop, Cursor, VS Code) runs Mooring's server on stdio with no window. Approvals its clients need go to the
// running Mooring app's dialog through the approval relay; with no app running they wait, bounded, then
// are refused with a clear error.
import { app } from 'electron';
import { QUICK_CLOSE_STAGE_MS } from '../core/mcp/stdioTransport';
import { MooringCore } from '../core/mooringCore';
import type { SecretStore } from '../core/secrets/secretStore';
import { serveMooringStdio } from '../core/serve/stdioServer';

export const MCP_SERVER_FLAG = '--mcp-server';

/** `secretStore`: the app's own choice (keychain, else its encrypted file), so servers' secrets resolve here too. */
export async function runMcpServer(o: { home: string; secretStore: SecretStore }): Promise<void> {
  const { home } = o;
  // The client that started this waits on its close, like `mooring serve --stdio`'s (QUICK_CLOSE_STAGE_MS).
  const core = await MooringCore.open({
    home,
    secretStore: o.secretStore,
    session: { closeStageMs: QUICK_CLOSE_STAGE_MS },
  });
  const log = (text: string) => process.stderr.write(`Mooring --mcp-server: ${text}\n`);
  await core.start({ watch: true });
  const relay = core.relayApprovalsToApp({ via: 'Mooring --mcp-server', onNotice: log });
  const handle = await serveMooringStdio({ core });
  log('serving MCP on stdio');
  await handle.closed;
  relay.stop();
  await core.close();
  app.quit();
}
