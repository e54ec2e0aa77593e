// `mooring web [--port N] [--no-open] [--json]` (ARCHITECTURE.md, "Processes and entry points": browser
// mode): opens the core, connects every enabled server, serves the UI on 127.0.0.1 and prints one URL with
// a one-time token. Ctrl-C or SIGTERM closes every session before exiting.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { MooringError, toErrorData } from '../core/errors';
import { MooringCore } from '../core/mooringCore';
import { isSafeExternalUrl } from '../core/safety/ssrfGuard';
import { resolveHome } from '../core/home';
import { announceWebInstance, newLinkFrom, runningWebInstances } from '../core/web/webInstance';
import { startWebServer } from '../core/web/webServer';
import { reportError } from './output';
import { onStop } from './processGuards';
import { multiline, say, tty } from './terminalText';

export interface WebCommandOptions {
  port?: string;
  open: boolean;
  json?: boolean;
  /** Ask the running instance for a new one-time link instead of starting one. */
  link?: boolean;
  /** Where the built renderer is; default out/renderer of this package. */
  staticDir?: string;
}

/**
 * out/renderer of this package. The compiled CLI runs from out/main/ (a chunk from out/main/chunks/), the
 * sources (in tests) from src-main/cli/: walk up to out/ or to the package root, whichever comes first.
 */
function builtRendererDir(): string {
  for (let dir = import.meta.dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    if (basename(dir) === 'out') return join(dir, 'renderer');
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'out', 'renderer');
  }
  return resolve('out/renderer');
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new MooringError(
      'usage',
      `--port must be a whole number from 1 to 65535, not "${text}".`,
      'Leave --port out for a free port.',
    );
  return n;
}

/** Opens the URL in the default browser: a loopback http URL, checked again before the OS sees it. */
function openInBrowser(url: string): void {
  if (!isSafeExternalUrl(url)) return;
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

export async function runWeb(opts: WebCommandOptions): Promise<void> {
  const port = parsePort(opts.port);
  // In browser mode the tab itself opens a URL-elicitation link after the user's consent in the dialog;
  // giving the core an opener is what declares the capability to servers.
  const core = await MooringCore.open({ openExternal: async () => undefined, offerAppViews: true });
  // Listening for a stop before anything starts: a SIGTERM right after the URL is printed (a script that
  // read it) closes what started so far and exits 0, like any later stop.
  const started: {
    web?: Awaited<ReturnType<typeof startWebServer>>;
    relay?: Awaited<ReturnType<MooringCore['listenForRelayedApprovals']>>;
    announced?: Awaited<ReturnType<typeof announceWebInstance>> | undefined;
  } = {};
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!opts.json) process.stdout.write(`\n${signal}: closing every server session…\n`);
    await started.announced?.remove();
    await started.relay?.close();
    await started.web?.close();
    await core.close();
    process.exit(0);
  };
  onStop((why) => void stop(why));
  const web = await startWebServer({
    core,
    port,
    staticDir: opts.staticDir ?? builtRendererDir(),
  });
  started.web = web;
  // `mooring web --link` finds this instance through run/web-<pid>.json (web/webInstance.ts).
  const announced = await announceWebInstance(resolveHome(process.env), {
    port: web.port,
    key: web.linkKey,
  }).catch((err: unknown) => {
    say(tty`mooring web: \`mooring web --link\` will not find this instance: ${toErrorData(err).message}\n`);
    return undefined;
  });
  started.announced = announced;
  // Approvals from `mooring serve` on this home show in this window's dialog (docs/data-on-disk.md, "Data on disk": run/, the approval relay).
  started.relay = await core.listenForRelayedApprovals({ app: 'mooring web' }).catch((err: unknown) => {
    say(tty`mooring web: approvals from mooring serve will not show here: ${toErrorData(err).message}\n`);
    return undefined;
  });
  if (stopping) return;
  // Print the URL before connecting servers: a slow server must not hold up the UI.
  if (opts.json) process.stdout.write(`${JSON.stringify({ url: web.url })}\n`);
  else
    process.stdout.write(
      `Mooring is running in browser mode. Open this link (it works once):\n  ${web.url}\n` +
        'For another browser or after this one closes, `mooring web --link` prints a new link.\n',
    );
  if (opts.open && !opts.json) openInBrowser(web.url);
  // A config that cannot be read must not end browser mode: the UI shows the same error with its hint,
  // and the file is watched, so fixing it starts the servers.
  core.start({ watch: true, resumeTasks: true }).catch((err: unknown) => {
    const e = toErrorData(err);
    say(
      tty`mooring web: the servers did not start: ${multiline(e.message)}\n` +
        (e.hint ? tty`${e.hint}\n` : '') +
        'Mooring keeps running and reads the file again when it changes.\n',
    );
  });
  // Schedules run in one process per home (docs/schedules.md, "Schedules"): this one, unless another has them.
  await core.schedules.own('mooring web').catch((err: unknown) => {
    say(tty`mooring web: schedules will not run here: ${toErrorData(err).message}\n`);
  });
}

/** `mooring web --link`: a new one-time link from the instance already running on this home. */
async function printNewLink(opts: WebCommandOptions): Promise<void> {
  const home = resolveHome(process.env);
  const running = await runningWebInstances(home);
  const port = opts.port === undefined ? undefined : parsePort(opts.port);
  const instance = port === undefined ? running[0] : running.find((r) => r.port === port);
  if (!instance)
    throw new MooringError(
      'not_found',
      port === undefined
        ? `No browser-mode Mooring is running with this home (${home}).`
        : `No browser-mode Mooring of this home listens on port ${port}${running.length ? ` (running: ${running.map((r) => r.port).join(', ')})` : ''}.`,
      'Start one with `mooring web`; it prints its link itself.',
    );
  const url = await newLinkFrom(instance);
  if (opts.json) process.stdout.write(`${JSON.stringify({ url, port: instance.port, pid: instance.pid })}\n`);
  else {
    const others = running.length > 1 ? ` (${running.length} are running; --port chooses)` : '';
    process.stdout.write(
      `A new link to the Mooring on port ${instance.port}${others} (it works once):\n  ${url}\n`,
    );
  }
  if (opts.open && !opts.json) openInBrowser(url);
}

export function registerWebCommand(program: Command): void {
  program
    .command('web')
    .description('Serve the Mooring UI in your browser on 127.0.0.1 (prints a one-time link)')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option('--no-open', 'do not open the browser')
    .option('--json', 'print {"url": …} as one JSON line (for scripts and tests)')
    .option('--link', 'print a new one-time link from the Mooring already running in browser mode')
    .action(async (o: WebCommandOptions) => {
      try {
        if (o.link) await printNewLink(o);
        else await runWeb(o);
      } catch (err) {
        process.exit(reportError(err, { json: o.json }));
      }
    });
}
