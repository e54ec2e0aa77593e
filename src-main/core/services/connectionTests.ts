// Connection tests (ARCHITECTURE.md, "The core as one object"): a handshake and tools/list on a throwaway
// session, through the same safety checks as a real start (mcp/connectionTest.ts), for the form's Test
// button and `mooring mcp test NAME`. Nothing is written.
import type { ServerConfig, ServerConfigInput } from '@shared/config';
import { parseServerInput } from '../config/serversStore';
import { testConnection, type ConnectionTestResult } from '../mcp/connectionTest';
import type { PoolActorOptions } from '../mcp/sessionPool';
import { KEYCHAIN_REF } from '../secrets/serverSecrets';

export interface ConnectionTestsDeps {
  /** The options of a throwaway session: the same checks, guarded fetch and capabilities as a real start. */
  session: PoolActorOptions;
  /** One saved server as written in the file ("<keychain>" where a secret is). */
  saved: (name: string) => Promise<ServerConfig>;
}

export class ConnectionTests {
  constructor(private readonly deps: ConnectionTestsDeps) {}

  /**
   * Secret values typed into the form are used for this test only; a "<keychain>" value (of a saved
   * server) is read from the keychain.
   */
  test(input: ServerConfigInput): Promise<ConnectionTestResult> {
    const config = parseServerInput(input);
    const stored = (values: Record<string, string>, keys: string[]) =>
      keys.filter((k) => values[k] === KEYCHAIN_REF);
    return testConnection(
      {
        ...config,
        secretEnv: stored(config.env, config.secretEnv),
        secretHeaders: stored(config.headers, config.secretHeaders),
      },
      this.deps.session,
    );
  }

  /** `mooring mcp test NAME`: the saved server, its secrets from the keychain. */
  async testSaved(name: string): Promise<ConnectionTestResult> {
    return this.test(await this.deps.saved(name));
  }
}
