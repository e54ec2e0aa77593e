// The client entry the MCP conformance suite drives (`npm run --silent conformance:client -- <url>`):
// Mooring's own session engine connects to the scenario's server, lists its tools and calls each one.
// The suite appends the server URL and names the scenario in MCP_CONFORMANCE_SCENARIO.
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/client';
import { ServerConfigSchema, type ServerConfig } from '@shared/config';
import { SessionActor } from '../core/mcp/sessionActor';
import { acceptElicitationsWithDefaults } from '../core/clientFeatures/clientFeatures';
import { toErrorData } from '../core/errors';
import { plainTransportAuth, transportAuth, type TransportAuth } from '../core/auth/authTransport';
import { followAuthorizationRedirects } from '../core/auth/headlessOpener';
import { OAuthManager } from '../core/auth/oauthManager';
import { MemorySecretStore } from '../core/secrets/secretStore';

/** The suite's URL-based client id: used where a scenario's server supports Client ID Metadata Documents. */
const CONFORMANCE_CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * OAuth for `auth/*` scenarios: Mooring's provider with an in-memory keychain (one process per scenario)
 * and an opener that plays the browser; the client-credentials scenarios use the SDK's providers (SEP-1046).
 * The suite passes credentials for some scenarios in MCP_CONFORMANCE_CONTEXT.
 */
async function conformanceAuth(scenario: string, config: ServerConfig): Promise<TransportAuth> {
  const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;
  if (scenario === 'auth/client-credentials-jwt')
    return plainTransportAuth(
      new PrivateKeyJwtProvider({
        clientId: ctx.client_id!,
        privateKey: ctx.private_key_pem!,
        algorithm: ctx.signing_algorithm ?? 'ES256',
      }),
      config.name,
    );
  if (scenario === 'auth/client-credentials-basic')
    return plainTransportAuth(
      new ClientCredentialsProvider({ clientId: ctx.client_id!, clientSecret: ctx.client_secret! }),
      config.name,
    );
  const manager = new OAuthManager({
    secrets: new MemorySecretStore(),
    clientMetadataUrl: CONFORMANCE_CIMD_URL,
    // The 0.1.13 suite's tenant-path servers (metadata-var2, -var3) publish the host's issuer for a
    // /tenant1 authorization server; tolerate that on the same origin only (OAuthProviderOptions.issuerCheck).
    issuerCheck: 'same-origin',
    ...(process.env.MOORING_OAUTH_REDIRECT_PORT
      ? { redirectPort: () => Number(process.env.MOORING_OAUTH_REDIRECT_PORT) }
      : {}),
  });
  const provider = manager.provider(
    config,
    followAuthorizationRedirects({ onPrompt: (t) => console.error(t) }),
  );
  if (ctx.client_id)
    await provider.setUserClient({ client_id: ctx.client_id, client_secret: ctx.client_secret! });
  return transportAuth(provider);
}

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
  enum?: unknown[];
};

/** Plain arguments that satisfy a tool's input schema (defaults first), for scenario tools. */
function sampleArgs(schema: JsonSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(schema?.properties ?? {})) {
    if (s.default !== undefined) out[k] = s.default;
    else if (s.enum?.length) out[k] = s.enum[0];
    else if (s.type === 'number' || s.type === 'integer') out[k] = Object.keys(out).length + 2;
    else if (s.type === 'boolean') out[k] = true;
    else if (s.type === 'string') out[k] = 'conformance';
    else if (s.type === 'array') out[k] = [];
    else if (s.type === 'object') out[k] = sampleArgs(s);
  }
  return out;
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize';
  if (!url || !/^https?:\/\//.test(url)) {
    console.error('usage: conformance:client -- <server-url>   (the conformance suite appends it)');
    return 2;
  }
  const config = ServerConfigSchema.parse({
    name: 'conformance',
    transport: 'http',
    url,
    timeoutSeconds: 30,
  });
  const auth = scenario.startsWith('auth/') ? await conformanceAuth(scenario, config) : undefined;
  // SEP-1034: nobody answers forms here, so every form elicitation is accepted with the schema's defaults.
  const features = scenario === 'elicitation-sep1034-client-defaults' ? acceptElicitationsWithDefaults() : {};
  const actor = new SessionActor({ config, ...features, ...(auth ? { authProviderFor: () => auth } : {}) });
  actor.on('log', (l) => console.error(`[${l.source}] ${l.text}`));
  try {
    await actor.start();
    console.error(`scenario ${scenario}: connected, ${actor.tools().length} tools`);
    if (scenario !== 'initialize') {
      for (const tool of actor.tools()) {
        const result = await tool.call(sampleArgs(tool.definition.inputSchema as JsonSchema));
        console.error(`${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}`);
      }
    }
    return 0;
  } catch (err) {
    const e = toErrorData(err);
    console.error(`error: ${e.message}${e.hint ? `\nhint: ${e.hint}` : ''}`);
    return 1;
  } finally {
    await actor.close();
  }
}

main().then((code) => process.exit(code));
