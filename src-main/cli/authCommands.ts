// `mooring mcp login NAME` and `mooring mcp logout NAME` (the auth room): OAuth sign-in for http/sse servers.
// The browser opens only after the terminal shows which server sends you to which host, and only for
// https (or loopback http) URLs — the auth room refuses anything else before this opener is called.
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import type { AuthorizationOpener, AuthorizationPrompt } from '../core/auth/oauthProvider';
import { MooringError } from '../core/errors';
import type { CoreRunner } from './mcpCommands';
import { EXIT } from './output';
import { printJson, say, tty } from './terminalText';

export interface AuthCommandDeps {
  /** How the authorization URL is opened; default: print it and try the OS opener. Tests drive it with fetch. */
  opener?: AuthorizationOpener;
}

/** Prints the server, host and URL, then tries xdg-open / open / start; the printed URL always works. */
export const terminalOpener =
  (opts: { browser: boolean }): AuthorizationOpener =>
  async (p: AuthorizationPrompt) => {
    say(
      tty`Sign in to "${p.server}": ${opts.browser ? 'your browser opens' : 'open this in your browser'} ${p.host}\n  ${p.url.toString()}\n`,
    );
    if (!opts.browser) return;
    const [cmd, args] =
      process.platform === 'darwin'
        ? ['open', [p.url.toString()]]
        : process.platform === 'win32'
          ? ['rundll32', ['url.dll,FileProtocolHandler', p.url.toString()]]
          : ['xdg-open', [p.url.toString()]];
    // No shell: the URL is one argument, never interpreted.
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => process.stderr.write('(could not start a browser; open the URL above)\n'));
    child.unref();
  };

export function registerAuthCommands(mcp: Command, withCore: CoreRunner, deps: AuthCommandDeps = {}): void {
  mcp
    .command('login')
    .description('sign in to an http/sse server with OAuth (opens a browser)')
    .argument('<name>')
    .option('--client-id <id>', 'a client id you registered with the provider (servers without registration)')
    .option('--client-secret-env <VAR>', "read that client's secret from this environment variable")
    .option('--no-browser', 'print the sign-in URL instead of opening a browser')
    .option('--json', 'machine-readable output')
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          let client: { client_id: string; client_secret?: string } | undefined;
          if (o.clientId) {
            const secret = o.clientSecretEnv ? process.env[o.clientSecretEnv] : undefined;
            if (o.clientSecretEnv && !secret)
              throw new MooringError(
                'usage',
                `The environment variable ${o.clientSecretEnv} is not set`,
                `Export it first: export ${o.clientSecretEnv}=…`,
              );
            client = { client_id: o.clientId, ...(secret ? { client_secret: secret } : {}) };
          }
          // The same path as a real session: secrets resolved, every fetch through the SSRF guard.
          const r = await core.auth.signIn(name, {
            opener: deps.opener ?? terminalOpener({ browser: o.browser !== false }),
            ...(client ? { client } : {}),
          });
          if (o.json) printJson({ ok: true, ...r });
          else
            say(tty`signed in to ${name}${r.scope ? ` (scopes: ${r.scope})` : ''}: ${r.toolCount} tools\n`);
          return EXIT.ok;
        },
        { json: o.json },
      ),
    );

  mcp
    .command('logout')
    .description('sign out of a server: forget its tokens and client registration')
    .argument('<name>')
    .option('--json', 'print the outcome as JSON on stdout')
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          // Without a keychain this command never kept a sign-in (tokens live in the keychain only).
          const note = await core.auth.signOut(name).then(
            () => undefined,
            (err: unknown) => {
              if (err instanceof MooringError && err.code === 'secret_unavailable')
                return 'no keychain is reachable here, so no sign-in was kept for the terminal';
              throw err;
            },
          );
          if (o.json) printJson({ ok: true, signedOut: name, ...(note ? { note } : {}) });
          else say(tty`signed out of ${name}${note ? ` (${note})` : ''}\n`);
        },
        { json: o.json },
      ),
    );
}
