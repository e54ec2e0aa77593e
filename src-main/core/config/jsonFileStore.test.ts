// JsonFileStore's rules, and that every JSON file in the home follows them: a change is applied to the
// file as it is under the lock (a hand edit made meanwhile is kept), and an invalid file is reported with
// file:line:column and never overwritten, whichever store tries to change it.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatPreferencesFile } from '../agent/chatPreferences';
import { homePaths } from '../home';
import { ApprovalStore, approvalsPath } from '../safety/approvalStore';
import { knownToolsPath, ToolQuarantine } from '../safety/toolQuarantine';
import { WorkspaceApprovals, workspaceApprovalsPath, workspacePin } from '../workspace/workspaceApprovals';
import { JsonFileStore } from './jsonFileStore';
import { serversFileStore } from './serversFile';
import { ServersStore } from './serversStore';
import { settingsFormat, SettingsStore } from './settings';

const tempHome = () => mkdtempSync(join(tmpdir(), 'mooring-jsonstore-'));
const INVALID = '{\n  "version": 1,\n  "oops": tru\n}\n';

describe('JsonFileStore', () => {
  it('applies each change to the file as it is now, keeping an edit made by hand in between', async () => {
    const file = join(tempHome(), 'settings.json');
    const store = new JsonFileStore({ file, format: settingsFormat });
    await store.update((s) => ({ ...s, yolo: true }));
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), logLevel: 'debug' }));
    const after = await store.update((s) => ({ ...s, maxToolIterations: 9 }));
    expect(after).toMatchObject({ yolo: true, logLevel: 'debug', maxToolIterations: 9 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ logLevel: 'debug', maxToolIterations: 9 });
  });

  it('does not rewrite a file whose content the change leaves equal (a hand layout is kept)', async () => {
    const file = join(tempHome(), 'mcp_servers.json');
    const layout = '{ "servers": [ { "name": "a", "command": "node" } ] }';
    writeFileSync(file, layout);
    await serversFileStore(file).update((doc) => doc);
    expect(readFileSync(file, 'utf8')).toBe(layout);
  });

  it('leaves neither temp files nor the lock behind', async () => {
    const home = tempHome();
    const store = SettingsStore.forHome(home);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.update((s) => ({ ...s, maxToolIterations: i + 1 }))),
    );
    expect(readdirSync(home)).toEqual(['settings.json']);
  });
});

describe('an invalid file in the home is never overwritten', () => {
  /** Makes the store with a valid (or missing) file, breaks the file, then asks the store to change it. */
  const cases: [string, (home: string) => string, (home: string) => Promise<() => Promise<unknown>>][] = [
    [
      'mcp_servers.json (ServersStore)',
      (h) => homePaths(h).servers,
      async (h) => {
        const store = ServersStore.forHome(h);
        return () => store.add({ name: 'new', command: 'node' });
      },
    ],
    [
      'settings.json (SettingsStore)',
      (h) => homePaths(h).settings,
      async (h) => {
        const store = SettingsStore.forHome(h);
        return () => store.update((s) => ({ ...s, yolo: true }));
      },
    ],
    [
      'approvals.json (ApprovalStore)',
      approvalsPath,
      async (h) => {
        const store = await ApprovalStore.open(h);
        return () =>
          store.remember({
            identity: { name: 's', command: 'node' },
            tool: { name: 't', inputSchema: { type: 'object' } },
            decidedBy: 'user',
          });
      },
    ],
    [
      'workspace-approvals.json (WorkspaceApprovals)',
      workspaceApprovalsPath,
      async (h) => {
        const store = await WorkspaceApprovals.open(h);
        const server = { name: 's', command: 'node' } as never;
        return () =>
          store.approve({
            workspace: '/w',
            source: '.mcp.json',
            name: 's',
            pin: workspacePin({ workspace: '/w', source: '.mcp.json', server }),
            commandLine: 'node',
          });
      },
    ],
    [
      'chat-preferences.json (ChatPreferencesFile)',
      (h) => join(h, 'chat-preferences.json'),
      async (h) => {
        const prefs = new ChatPreferencesFile(h);
        return () => prefs.update((p) => ({ ...p, defaultModel: 'ollama:x' }));
      },
    ],
  ];

  it.each(cases)('%s', async (_name, pathOf, makeChange) => {
    const home = tempHome();
    const change = await makeChange(home);
    writeFileSync(pathOf(home), INVALID);
    const err = await change().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'config_invalid' });
    expect((err as Error).message).toContain(`${pathOf(home)}:3:`);
    expect((err as { hint?: string }).hint).toMatch(/Mooring has not changed it/);
    expect(readFileSync(pathOf(home), 'utf8')).toBe(INVALID);
  });

  it('known_tools.json (ToolQuarantine): the memory goes on, the file is left alone', async () => {
    const home = tempHome();
    const q = await ToolQuarantine.open(home);
    q.observe('s', [{ name: 'read' }]);
    await q.flush();
    writeFileSync(knownToolsPath(home), INVALID);
    expect(q.observe('s', [{ name: 'read' }, { name: 'wipe' }])).toEqual(['wipe']);
    await q.flush();
    expect(q.quarantined('s')).toEqual(['wipe']);
    expect(readFileSync(knownToolsPath(home), 'utf8')).toBe(INVALID);
    await expect(ToolQuarantine.open(home)).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringContaining(`${knownToolsPath(home)}:3:`),
    });
  });
});
