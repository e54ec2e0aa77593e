// The client entry the MCP conformance suite drives (`npm run --silent conformance:client -- <url>`):
// Mooring's own session engine connects to the scenario's server, lists its tools and calls each one.
// The suite appends the server URL and names the scenario in MCP_CONFORMANCE_SCENARIO.
import { ServerConfigSchema } from '@shared/config';
import { SessionActor } from '../core/mcp/sessionActor';
import { toErrorData } from '../core/errors';

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
  const actor = new SessionActor({ config });
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
