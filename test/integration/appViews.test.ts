// MCP Apps through the core with the real fixture server (test/fixtures/servers/appsServer.ts): the
// extension is declared, app-only tools stay out of the model's catalog and are refused to anyone but a
// view, a view's resource is read and cached per conversation, its CSP drops what the guard refuses, and a
// view's calls take the gated path labelled as the app's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resultText } from '@shared/toolResult';
import type { ApprovalRequest } from '@shared/approval';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { startSandboxServer } from '../../src-main/core/web/sandboxServer';
import { request } from 'node:http';
import { RUN_TS, extAppsExample, fixturePath, tempDir } from '../helpers/servers';

const cores: MooringCore[] = [];
afterEach(async () => void (await Promise.all(cores.splice(0).map((c) => c.close()))));

const APPS_SERVER = { command: 'node', args: [RUN_TS, fixturePath('appsServer.ts')] };

async function appsCore(servers: object[] = [{ name: 'apps', ...APPS_SERVER }]) {
  const home = tempDir('mooring-apps-');
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    offerAppViews: true,
    env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
  });
  cores.push(core);
  await core.start();
  core.apps.setSandbox(
    { originOf: () => 'http://localhost:1', pageUrl: (id) => `http://localhost:1/view/${id}` },
    'http://127.0.0.1:2',
  );
  return core;
}

describe('MCP Apps in the core', () => {
  it('declares the extension; the model never gets an app-only tool, and only a view may call it', async () => {
    const core = await appsCore();
    const cap = await core.tools.call('mcp__apps__ui_capability', {}, { client: 'test' });
    expect(JSON.parse(resultText(cap.result))).toEqual({ mimeTypes: ['text/html;profile=mcp-app'] });

    const active = core.tools
      .catalog()
      .active()
      .map((e) => e.modelName);
    expect(active).toContain('mcp__apps__show_counter');
    expect(active).not.toContain('mcp__apps__increment');
    expect(() => core.tools.catalog().resolve('increment')).toThrow(/increment/);
    await expect(core.tools.call('mcp__apps__increment', { count: 1 }, { client: 'test' })).rejects.toThrow(
      /views only/,
    );

    const view = await core.apps.open({ server: 'apps', tool: 'show_counter', conversationId: 'c1' });
    expect(view?.uri).toBe('ui://apps-fixture/counter.html');
    const result = await core.apps.callTool({
      viewId: view!.viewId,
      name: 'increment',
      arguments: { count: 4 },
    });
    expect(result.structuredContent).toEqual({ count: 5 });
    // A tool of the same server with no view is not the view's unless visible to apps (default: it is).
    await expect(
      core.apps.callTool({ viewId: view!.viewId, name: 'no_such_tool', arguments: {} }),
    ).rejects.toThrow(/does not offer to views/);
  });

  it('builds the view: CSP injected first, undeclarable domains dropped, permissions not granted until allowed', async () => {
    const core = await appsCore();
    const view = (await core.apps.open({ server: 'apps', tool: 'show_escape', conversationId: 'c1' }))!;
    expect(view.html.startsWith('<!doctype html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(view.csp).toContain("connect-src 'none'");
    expect(view.dropped.map((d) => d.origin)).toEqual([
      'http://169.254.169.254',
      'https://ok.example; script-src *',
    ]);
    expect(view.permissions).toEqual({ requested: ['camera', 'clipboardWrite'], granted: [] });
    expect(view.allow).toBe('');
    expect(core.apps.registered(view.viewId)?.frameAncestor).toBe('http://127.0.0.1:2');
    core.apps.setPermissions('apps', ['clipboardWrite']);
    const again = (await core.apps.open({ server: 'apps', tool: 'show_escape', conversationId: 'c1' }))!;
    expect(again.allow).toBe('clipboard-write');
    expect(await core.apps.open({ server: 'apps', tool: 'reset_counter' })).toBeUndefined();
  });

  it('a destructive call from a view asks, labelled as the app, and a denial reaches the view as isError', async () => {
    const core = await appsCore();
    const view = (await core.apps.open({ server: 'apps', tool: 'show_counter', conversationId: 'c1' }))!;
    const asked = new Promise<ApprovalRequest>((resolve) =>
      core.approvals.once('requested', (r) => {
        core.approvals.answer(r.id, { outcome: 'deny', decidedBy: 'user:test' });
        resolve(r);
      }),
    );
    const result = await core.apps.callTool({ viewId: view.viewId, name: 'reset_counter', arguments: {} });
    const req = await asked;
    expect(req.client).toBe('app:apps/show_counter');
    expect(req.conversationId).toBe('c1');
    expect(result.isError).toBe(true);
  });

  it('a view whose resource the server updates is read again: open views hear it, new opens get the new HTML', async () => {
    const core = await appsCore();
    const first = (await core.apps.open({ server: 'apps', tool: 'show_recorder', conversationId: 'c1' }))!;
    expect(first.html).toContain('recorder v1');
    // Cached per conversation until the server says otherwise.
    const cached = (await core.apps.open({ server: 'apps', tool: 'show_recorder', conversationId: 'c1' }))!;
    expect(cached.html).toContain('recorder v1');
    const updated = new Promise<{ server: string; uri: string }>((resolve) =>
      core.apps.once('updated', resolve),
    );
    await core.apps.callTool({ viewId: first.viewId, name: 'bump_recorder_view', arguments: {} });
    expect(await updated).toEqual({ server: 'apps', uri: 'ui://apps-fixture/recorder.html' });
    const next = (await core.apps.open({ server: 'apps', tool: 'show_recorder', conversationId: 'c1' }))!;
    expect(next.html).toContain('recorder v2');
    expect(next.viewId).not.toBe(first.viewId);
  });

  it('views of an approved project-folder server work in that folder’s conversations; unapproved, there is none', async () => {
    const core = await appsCore([]);
    const ws = tempDir('mooring-apps-ws-');
    mkdirSync(join(ws, '.vscode'));
    writeFileSync(
      join(ws, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { folderapps: { type: 'stdio', ...APPS_SERVER } } }),
    );
    await core.chat.conversations.open('in-folder', ws);
    // Not approved: the folder's server never runs, so its tools and views do not exist anywhere.
    expect(
      await core.apps.open({ server: 'folderapps', tool: 'show_counter', conversationId: 'in-folder' }),
    ).toBe(undefined);
    await core.workspaces.approve(ws, 'folderapps');
    const view = (await core.apps.open({
      server: 'folderapps',
      tool: 'show_counter',
      conversationId: 'in-folder',
    }))!;
    expect(view.html).toContain('Counter');
    // The view reaches its own server through the folder's session: an app-only tool and a resource.
    const result = await core.apps.callTool({
      viewId: view.viewId,
      name: 'increment',
      arguments: { count: 1 },
    });
    expect(result.structuredContent).toEqual({ count: 2 });
    const read = await core.apps.readResource({ viewId: view.viewId, uri: 'ui://apps-fixture/form.html' });
    expect(JSON.stringify(read.contents)).toContain('Send to chat');
    // A grant given to a server by this name is not the folder's: a cloned repo may name its server
    // after one the person trusts. Its views get no device permission.
    core.apps.setPermissions('folderapps', ['camera', 'clipboardWrite']);
    const asking = (await core.apps.open({
      server: 'folderapps',
      tool: 'show_escape',
      conversationId: 'in-folder',
    }))!;
    expect(asking.permissions).toEqual({ requested: ['camera', 'clipboardWrite'], granted: [] });
    expect(asking.allow).toBe('');
    // A conversation elsewhere does not see the folder's server.
    expect(
      await core.apps.open({ server: 'folderapps', tool: 'show_counter', conversationId: 'elsewhere' }),
    ).toBe(undefined);
  });

  it('a view larger than the old 4 MB message limit is read (server-pdf’s viewer); over a server’s own limit, the error names the setting', async () => {
    const pdf = { command: 'node', args: [extAppsExample('pdf'), '--stdio'] };
    const core = await appsCore([
      { name: 'pdf', ...pdf },
      { name: 'smallpdf', ...pdf, maxMessageMB: 4 },
    ]);
    const view = (await core.apps.open({ server: 'pdf', tool: 'display_pdf', conversationId: 'c1' }))!;
    expect(view.html.length).toBeGreaterThan(4 * 1048576);
    expect(view.csp).toContain('worker-src blob:');
    const err = await core.apps.open({ server: 'smallpdf', tool: 'display_pdf', conversationId: 'c1' }).then(
      () => undefined,
      (e: unknown) => e as { message: string; hint?: string },
    );
    expect(err?.message).toMatch(
      /The answer to resources\/read ui:\/\/pdf-viewer\/mcp-app\.html was 4\.\d MB, over the 4 MB .*maxMessageMB/,
    );
    expect(err?.hint).toContain('mooring mcp set smallpdf maxMessageMB');
  });

  it('the sandbox server serves a view’s page with its CSP, framed by the app only, and nothing else', async () => {
    const core = await appsCore();
    const sandbox = await startSandboxServer(core.apps);
    try {
      const port = new URL(sandbox.origin).port;
      core.apps.setSandbox(
        { originOf: () => sandbox.origin, pageUrl: (id) => `${sandbox.origin}/view/${id}` },
        'http://127.0.0.1:2',
      );
      const view = (await core.apps.open({ server: 'apps', tool: 'show_counter' }))!;
      const get = (path: string, host: string) =>
        new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          });
          req.on('error', reject);
          req.end();
        });
      const page = await get(`/view/${view.viewId}`, `localhost:${port}`);
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toBe(`${view.csp}; frame-ancestors http://127.0.0.1:2`);
      expect(page.headers['permissions-policy']).toContain('camera=()');
      expect(page.body).toContain("inner.setAttribute('sandbox', SANDBOX)");
      expect(page.body).toContain('"allow-scripts allow-forms"');
      // DNS rebinding: another Host is refused; an unknown view is not found.
      expect((await get(`/view/${view.viewId}`, `evil.example:${port}`)).status).toBe(403);
      expect((await get('/view/00000000-0000-0000-0000-000000000000', `localhost:${port}`)).status).toBe(404);
      expect((await get('/', `localhost:${port}`)).status).toBe(404);
    } finally {
      await sandbox.close();
    }
  });
});
