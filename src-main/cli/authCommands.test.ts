// After `mooring mcp login`, a signed-in session and tool calls, no token is in any
// file of the Mooring home. Runs the real CLI commands in-process on a MooringCore with a temporary home;
// on a real Secret Service (under scripts/with-keyring.sh) the tokens go to the OS keychain,
// elsewhere to the in-memory store, and either way the scan covers every file the run wrote.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServerFixture } from '../../test/fixtures/authServer';
import { cfg, freePort } from '../../test/helpers/servers';
import { registerAuthCommands } from './authCommands';
import type { CoreRunner } from './mcpCommands';
import { MooringCore } from '../core/mooringCore';
import { KeytarSecretStore, MemorySecretStore, type SecretStore } from '../core/secrets/secretStore';
import { followAuthorizationRedirects } from '../core/auth/headlessOpener';
import { OAuthManager } from '../core/auth/oauthManager';

const privateKeyring = Boolean(process.env.GNOME_KEYRING_CONTROL || process.env.WITH_KEYRING_INNER);

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

describe(`tokens never reach a file (${privateKeyring ? 'real Secret Service' : 'in-memory keychain'})`, () => {
  let fixture: AuthServerFixture;
  let home: string;
  let secrets: SecretStore;
  let port: number;
  const service = `Mooring-auth-test-${process.pid}`;

  beforeAll(async () => {
    fixture = await startAuthServer();
    home = await mkdtemp(join(tmpdir(), 'mooring-auth-home-'));
    secrets = privateKeyring ? new KeytarSecretStore({ service }) : new MemorySecretStore();
    port = await freePort();
    // The redirect port is a setting (settings.json), read at each sign-in.
    await writeFile(join(home, 'settings.json'), JSON.stringify({ oauthRedirectPort: port }));
  });
  afterAll(async () => {
    await fixture.close();
    await rm(home, { recursive: true, force: true });
    if (privateKeyring) {
      const keytar = (await import('keytar')).default;
      for (const c of await keytar.findCredentials(service)) await keytar.deletePassword(service, c.account);
    }
  });

  const run = async (argv: string[]): Promise<number> => {
    let code = 0;
    const withCore: CoreRunner = async (fn) => {
      const core = await MooringCore.open({ home, secretStore: secrets });
      try {
        code = (await fn(core)) ?? 0;
      } finally {
        await core.close();
      }
    };
    const program = new Command('mooring').exitOverride();
    registerAuthCommands(program.command('mcp'), withCore, { opener: followAuthorizationRedirects() });
    await program.parseAsync(['node', 'mooring', 'mcp', ...argv]);
    return code;
  };

  it('logs in, works signed in, logs out; no file in the home holds a token', async () => {
    const setup = await MooringCore.open({ home, secretStore: secrets });
    // The sign-in is under test, not the default safe set (which would turn the unannotated whoami off).
    await setup.servers.add(
      { name: 'remote', transport: 'http', url: fixture.mcpUrl },
      { start: false, safeDefaults: false },
    );
    await setup.close();

    expect(await run(['login', 'remote'])).toBe(0);
    expect(fixture.counts.code).toBe(1);

    // The app's background session: stored tokens from the keychain, a refresh on 401, tool calls.
    const manager = new OAuthManager({ secrets, redirectPort: () => port });
    const core = await MooringCore.open({
      home,
      secretStore: secrets,
      session: { authProviderFor: manager.authFor },
    });
    try {
      await core.startOnly(['remote']);
      expect(core.servers.statuses()).toMatchObject([{ name: 'remote', state: 'ready' }]);
      fixture.expireAccessTokens();
      const out = await core.tools.call('mcp__remote__whoami', {}, { client: 'test', preApproved: true });
      expect(JSON.stringify(out)).toContain('a signed-in user');
      // The call was answered through a refresh, not a new sign-in. A request already on the wire with the
      // old access token when the refresh lands (the session's GET stream, on a loaded machine) may refresh
      // once more, with the new refresh token: that one succeeds too. A refused refresh would mean the
      // same refresh token was spent twice (auth/refreshOnce.ts).
      expect(fixture.counts.refresh).toBeGreaterThanOrEqual(1);
      expect(fixture.counts.refreshRejected).toBe(0);
      expect(fixture.counts.code).toBe(1);
    } finally {
      await core.close();
    }

    const files = await filesUnder(home);
    expect(files.length).toBeGreaterThan(1); // mcp_servers.json, settings.json, logs…
    expect(fixture.issued.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      const text = await readFile(f, 'utf8');
      for (const token of fixture.issued) expect(text.includes(token), `${token} in ${f}`).toBe(false);
    }

    expect(await run(['logout', 'remote'])).toBe(0);
    const fresh = new OAuthManager({ secrets, redirectPort: () => port });
    expect(await fresh.signInState(cfg({ name: 'remote', transport: 'http', url: fixture.mcpUrl }))).toEqual({
      signedIn: false,
    });
  });
});
