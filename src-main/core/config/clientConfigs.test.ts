// Client config detection against fixture homes laid out as each platform lays them out.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientConfigLocations, findClientConfigs } from './clientConfigs';

const put = (file: string, text = '{}') => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};

describe('client config locations', () => {
  it('macOS: Application Support for Claude Desktop and VS Code, dot folders for the rest', () => {
    const paths = clientConfigLocations({ platform: 'darwin', home: '/Users/ana', env: {} }).map((l) => [
      l.client,
      l.path,
    ]);
    expect(paths).toEqual([
      ['claude-desktop', '/Users/ana/Library/Application Support/Claude/claude_desktop_config.json'],
      ['claude-code', '/Users/ana/.claude.json'],
      ['cursor', '/Users/ana/.cursor/mcp.json'],
      ['vscode', '/Users/ana/Library/Application Support/Code/User/mcp.json'],
      ['vscode', '/Users/ana/Library/Application Support/Code/User/settings.json'],
      ['windsurf', '/Users/ana/.codeium/windsurf/mcp_config.json'],
      ['zed', '/Users/ana/.config/zed/settings.json'],
      ['goose', '/Users/ana/.config/goose/config.yaml'],
      ['continue', '/Users/ana/.continue/config.yaml'],
      ['continue', '/Users/ana/.continue/config.json'],
      ['lm-studio', '/Users/ana/.lmstudio/mcp.json'],
    ]);
  });

  it('Windows: %APPDATA% (or its default under the profile), backslashes', () => {
    const withAppData = clientConfigLocations({
      platform: 'win32',
      home: 'C:\\Users\\ana',
      env: { APPDATA: 'D:\\Roaming' },
    });
    expect(withAppData.find((l) => l.client === 'claude-desktop')!.path).toBe(
      'D:\\Roaming\\Claude\\claude_desktop_config.json',
    );
    expect(withAppData.find((l) => l.client === 'zed')!.path).toBe('D:\\Roaming\\Zed\\settings.json');
    expect(withAppData.find((l) => l.client === 'goose')!.path).toBe(
      'D:\\Roaming\\Block\\goose\\config\\config.yaml',
    );
    const byDefault = clientConfigLocations({ platform: 'win32', home: 'C:\\Users\\ana', env: {} });
    expect(byDefault.find((l) => l.client === 'vscode')!.path).toBe(
      'C:\\Users\\ana\\AppData\\Roaming\\Code\\User\\mcp.json',
    );
    expect(byDefault.find((l) => l.client === 'cursor')!.path).toBe('C:\\Users\\ana\\.cursor\\mcp.json');
    expect(byDefault.find((l) => l.client === 'continue')!.path).toBe(
      'C:\\Users\\ana\\.continue\\config.yaml',
    );
  });

  it('Linux: $XDG_CONFIG_HOME when set, else ~/.config', () => {
    const xdg = clientConfigLocations({
      platform: 'linux',
      home: '/home/ana',
      env: { XDG_CONFIG_HOME: '/cfg' },
    });
    expect(xdg.find((l) => l.client === 'claude-desktop')!.path).toBe(
      '/cfg/Claude/claude_desktop_config.json',
    );
    const plain = clientConfigLocations({ platform: 'linux', home: '/home/ana', env: {} });
    expect(plain.find((l) => l.client === 'zed')!.path).toBe('/home/ana/.config/zed/settings.json');
    expect(plain.find((l) => l.client === 'claude-code')!.path).toBe('/home/ana/.claude.json');
  });

  it('finds exactly the files a fixture home holds (a folder where a file should be does not count)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mooring-clients-'));
    put(join(home, '.config/Claude/claude_desktop_config.json'), '{"mcpServers": {}}');
    put(join(home, '.cursor/mcp.json'));
    put(join(home, '.config/goose/config.yaml'), 'extensions: {}\n');
    mkdirSync(join(home, '.lmstudio/mcp.json'), { recursive: true });
    const found = await findClientConfigs({ platform: 'linux', home, env: {} });
    expect(found.map((f) => [f.label, f.path])).toEqual([
      ['Claude Desktop', join(home, '.config/Claude/claude_desktop_config.json')],
      ['Cursor', join(home, '.cursor/mcp.json')],
      ['Goose', join(home, '.config/goose/config.yaml')],
    ]);
  });
});
