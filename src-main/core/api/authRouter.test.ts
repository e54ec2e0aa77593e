// Sign in from the UI through the router on a real core, against a local authorization server:
// `begin` hands over the URL and host, the browser's part is played by following the redirects, the
// session restarts and goes ready, and sign-out forgets the tokens.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServerFixture } from '../../../test/fixtures/authServer';
import { freePort, tempDir, waitFor } from '../../../test/helpers/servers';
import { followAuthorizationRedirects } from '../auth/headlessOpener';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import { appRouter, createApiContext } from './router';
import { createCallerFactory } from './trpc';

let fixture: AuthServerFixture | undefined;
let core: MooringCore | undefined;
afterEach(async () => {
  await core?.close();
  await fixture?.close();
});

describe('auth router', () => {
  it('signs in: begin returns the host to show, the flow completes, the server goes ready; sign out forgets', async () => {
    fixture = await startAuthServer();
    const home = tempDir('mooring-auth-ui-');
    const port = await freePort();
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ oauthRedirectPort: port }));
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'remote', transport: 'http', url: fixture.mcpUrl }] }),
    );
    core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    await core.start();
    expect(core.servers.statuses()[0]).toMatchObject({ state: 'failed', error: { code: 'auth_required' } });
    const caller = createCallerFactory(appRouter)(createApiContext(core));
    expect(await caller.auth.state({ name: 'remote' })).toMatchObject({ remote: true, signedIn: false });

    const { url, host } = await caller.auth.begin({ name: 'remote' });
    expect(host).toBe(new URL(fixture.base).host);
    // The user agreed and the browser went there: play it.
    await followAuthorizationRedirects()({ server: 'remote', host, url: new URL(url) });
    const c = core;
    await waitFor(
      () => c.servers.statuses().find((s) => s.name === 'remote' && s.state === 'ready'),
      'the signed-in session',
    );
    expect(await caller.auth.state({ name: 'remote' })).toMatchObject({ signedIn: true, scope: 'mcp:read' });

    await caller.auth.signOut({ name: 'remote' });
    expect(await caller.auth.state({ name: 'remote' })).toMatchObject({ signedIn: false });
  });
});
