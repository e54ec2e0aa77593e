// `mooring serve --stdio | --http PORT`: Mooring as an MCP server for other clients (Claude
// Desktop, Cursor, VS Code, scripts), on the same core as the app: memory, conversations, and the tools of
// every configured server under Mooring's safety engine.
import type { Command } from 'commander';
import { MooringError } from '../core/errors';
import type { MooringCore } from '../core/mooringCore';
import { describeScope, type ClientScope } from '../core/serve/clientScope';
import { startMcpHttpServer } from '../core/serve/httpServer';
import { parseSessionLimits } from '../core/serve/httpSessions';
import { generateToken, readTokenFile, type ServerToken } from '../core/serve/serverTokens';
import { serveMooringStdio } from '../core/serve/stdioServer';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from '../core/serve/servedTools';
import type { CoreRunner } from './mcpCommands';
import { onStop } from './processGuards';
import { interactive } from './terminalPrompt';
import { answerApprovalsOnTerminal } from './terminalRequests';
import { print, say, tty } from './terminalText';

/** How long serve waits for the configured servers before answering clients (the rest join via list_changed). */
const START_WAIT_MS = 15_000;

interface ServeOptions {
  stdio?: boolean;
  http?: string;
  host: string;
  allowRemote?: boolean;
  allowedHost?: string[];
  tokenFile?: string;
  label: string;
  readOnly?: boolean;
  tools?: string;
  approvalTimeout?: string;
  model?: string;
  json?: boolean;
  maxSessions?: string;
  maxSessionsPerToken?: string;
  sessionIdle?: string;
  clientEntry?: boolean;
}

function parsePort(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new MooringError(
      'usage',
      `--http needs a port from 0 to 65535, not "${text}"`,
      'e.g. mooring serve --http 8765',
    );
  return n;
}

function parseSeconds(text: string | undefined): number {
  if (text === undefined) return DEFAULT_APPROVAL_TIMEOUT_MS;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || n > 3600)
    throw new MooringError(
      'usage',
      `--approval-timeout must be 0–3600 seconds, not "${text}"`,
      'e.g. --approval-timeout 60',
    );
  return Math.round(n * 1000);
}

function scopeFromFlags(o: ServeOptions): ClientScope {
  const tools = o.tools
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return { ...(o.readOnly ? { readOnly: true } : {}), ...(tools?.length ? { tools } : {}) };
}

/**
 * Resolves on SIGINT, SIGTERM or a closed output pipe: a server stopped that way ends cleanly (exit 0);
 * withCore closes the core.
 */
const untilSignal = () =>
  new Promise<void>((resolve) => {
    const stop = onStop(() => {
      stop();
      resolve();
    });
  });

/**
 * With nobody to ask here (stdio, or HTTP without a terminal), approvals go to the running app's dialog over
 * the local relay, and so do the sampling and elicitation requests of the servers behind it; with no app
 * running they are refused or declined at once (serve/approvalRelayClient.ts).
 */
function relayApprovals(core: MooringCore, via: string): () => void {
  const relay = core.relayApprovalsToApp({
    via,
    onNotice: (t) => say(tty`mooring serve: ${t}\n`),
  });
  return () => relay.stop();
}

async function startServers(core: MooringCore): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    core.start({ watch: true }),
    new Promise<void>((r) => (timer = setTimeout(r, START_WAIT_MS))),
  ]).finally(() => clearTimeout(timer));
  for (const s of core.servers.statuses())
    if (s.state === 'failed')
      say(tty`mooring serve: ${s.name} is not connected: ${s.error?.message ?? 'failed'}\n`);
}

/** `--client-entry`: the stdio entry for Claude Desktop, Cursor and the like, with this install's paths. */
function printClientEntry(core: MooringCore, json: boolean | undefined): void {
  const entry = core.sharing.clientEntry();
  if (json) {
    process.stdout.write(`${JSON.stringify(entry)}\n`);
    return;
  }
  process.stdout.write(`${entry.json}\n`);
  say(`${entry.bareNote}\n`);
}

/** Schedules run in one process per home (docs/schedules.md, "Schedules"): this one, unless another has them. */
async function ownSchedules(core: MooringCore): Promise<void> {
  await core.schedules.own('mooring serve').catch((err: unknown) => {
    say(
      tty`mooring serve: schedules will not run here: ${err instanceof Error ? err.message : String(err)}\n`,
    );
  });
}

async function serve(core: MooringCore, o: ServeOptions): Promise<void> {
  if (o.clientEntry) return printClientEntry(core, o.json);
  if (Boolean(o.stdio) === (o.http !== undefined))
    throw new MooringError(
      'usage',
      'Choose one transport: --stdio or --http PORT',
      'e.g. mooring serve --stdio',
    );
  const approvalTimeoutMs = parseSeconds(o.approvalTimeout);
  const deps = { core, approvalTimeoutMs, ...(o.model ? { defaultModel: o.model } : {}) };
  const scope = scopeFromFlags(o);

  if (o.stdio) {
    // Listening for the signal before the slow start (servers, the schedules' lease): a stop asked for
    // meanwhile still closes everything cleanly instead of killing the process.
    const signalled = untilSignal();
    await startServers(core);
    await ownSchedules(core);
    const stopRelay = relayApprovals(core, 'mooring serve --stdio');
    const handle = await serveMooringStdio({ ...deps, scope });
    process.stderr.write(`mooring serve: MCP on stdio (scope: ${describeScope(scope)})\n`);
    await Promise.race([handle.closed, signalled]);
    await handle.close();
    stopRelay();
    return;
  }

  let tokens: ServerToken[];
  let generated: ServerToken | undefined;
  if (o.tokenFile) {
    if (o.readOnly || o.tools)
      throw new MooringError(
        'usage',
        '--read-only and --tools apply to a generated token',
        'Put each scope in the token file instead.',
      );
    tokens = await readTokenFile(o.tokenFile);
  } else {
    generated = { label: o.label, token: generateToken(), scope };
    tokens = [generated];
  }
  const http = await startMcpHttpServer({
    ...deps,
    port: parsePort(o.http!),
    host: o.host,
    tokens,
    sessionLimits: parseSessionLimits(o),
    ...(o.allowRemote ? { allowRemote: true } : {}),
    ...(o.allowedHost?.length ? { allowedHosts: o.allowedHost } : {}),
    onError: (e) => say(tty`mooring serve: ${e.message}\n`),
  });
  // Before the URL is printed: a client may connect and a stop come while servers and the schedules' lease
  // are still starting; the stop must then close everything cleanly, not kill the process.
  const signalled = untilSignal();
  if (o.json)
    process.stdout.write(
      `${JSON.stringify({ url: http.url, ...(generated ? { token: generated.token, label: generated.label } : {}) })}\n`,
    );
  else {
    process.stdout.write(`Mooring serves MCP at ${http.url}\n`);
    if (generated)
      process.stdout.write(
        `Token for "${generated.label}" (scope: ${describeScope(scope)}); it is shown only now:\n  Authorization: Bearer ${generated.token}\n`,
      );
    else print(tty`Tokens from ${o.tokenFile}: ${tokens.map((t) => t.label).join(', ')}\n`);
  }
  // With a terminal free (HTTP mode), approvals from external clients are answered here, one at a time.
  // Before the servers start: a client that connects at once may call a tool while the schedules' lease
  // is still being taken.
  const stopPrompt = interactive()
    ? answerApprovalsOnTerminal(core)
    : relayApprovals(core, 'mooring serve --http');
  await startServers(core);
  await ownSchedules(core);
  await signalled;
  stopPrompt();
  await http.close();
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Registers `mooring serve`; index.ts calls `registerServeCommand(program, withCore)`. */
export function registerServeCommand(program: Command, withCore: CoreRunner): void {
  program
    .command('serve')
    .description("serve Mooring (memory, conversations, every configured server's tools) as an MCP server")
    .option('--stdio', 'speak MCP on stdin/stdout (for a client that launches Mooring)')
    .option(
      '--client-entry',
      "print the config entry that starts this install's --stdio server (Claude Desktop, Cursor)",
    )
    .option('--http <port>', 'serve Streamable HTTP on this port (0: a free one), with a bearer token')
    .option('--host <address>', 'address to bind for --http', '127.0.0.1')
    .option('--allow-remote', 'allow binding a non-loopback address (other machines can then connect)')
    .option(
      '--allowed-host <name>',
      'an extra Host/Origin name to accept with --allow-remote (repeatable)',
      collect,
    )
    .option('--token-file <file>', 'tokens with labels and scopes: {"tokens":[{"label","token","scope"}]}')
    .option('--label <name>', 'label of the generated token (the client name in the audit log)', 'default')
    .option('--read-only', 'scope: only tools marked read-only (stdio, or the generated token)')
    .option('--tools <names>', 'scope: only these tools, comma-separated; a trailing * matches a prefix')
    .option('--approval-timeout <seconds>', 'refuse a call nobody approved within this time (default 120)')
    .option('--model <provider:model>', 'the model start_session uses when the client names none')
    .option(
      '--json',
      'with --http: print {"url","token","label"} as one JSON line; with --client-entry: the entry',
    )
    .option('--max-sessions <n>', 'with --http: open sessions in all (default 64)')
    .option('--max-sessions-per-token <n>', 'with --http: open sessions per token (default 16)')
    .option('--session-idle <seconds>', 'with --http: close a session unused this long (default 600)')
    .action(async (o: ServeOptions) =>
      withCore((core) => serve(core, o), { json: o.json, handlesSignals: true }),
    );
}
