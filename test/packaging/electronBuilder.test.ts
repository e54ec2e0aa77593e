// Packaging (README, "Packaging"): electron-builder.yml as electron-builder itself loads and validates it
// (its own JSON schema: a misspelt key fails rather than being ignored), per platform: macOS dmg with the
// hardened runtime and an entitlements file, Windows nsis, Linux AppImage and deb; the generated icons
// it names exist; native modules are unpacked from the asar; mooring:// is registered. The fuses are
// checked in test/security/electronShell.test.ts. `npm run dist` itself needs the Electron runtime download.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DebugLogger } from 'builder-util';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'app-builder-lib';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

async function load(dir = root, file = join(root, 'electron-builder.yml')): Promise<Configuration> {
  const config = await getConfig(dir, file, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

const targets = (t: unknown): string[] =>
  (Array.isArray(t) ? t : [t]).map((x) => (typeof x === 'string' ? x : (x as { target: string }).target));

/** Reads width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const b = readFileSync(file);
  expect(b.subarray(1, 4).toString('latin1'), file).toBe('PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe('electron-builder.yml', () => {
  it('passes electron-builder validation with the targets of each platform', async () => {
    const c = await load();
    expect(targets(c.mac?.target)).toEqual(['dmg']);
    expect(targets(c.win?.target)).toEqual(['nsis']);
    expect(targets(c.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(c.publish).toBeNull();
  });

  it('macOS: hardened runtime with an entitlements file that allows JIT and nothing sandboxed', async () => {
    const c = await load();
    expect(c.mac?.hardenedRuntime).toBe(true);
    const plist = readFileSync(join(root, c.mac!.entitlements!), 'utf8');
    expect(c.mac?.entitlementsInherit).toBe(c.mac?.entitlements);
    expect(plist).toMatch(/<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
    expect(plist).not.toMatch(/com\.apple\.security\.app-sandbox/);
  });

  it('every icon it names exists and is the generated kind', async () => {
    const c = await load();
    expect(readFileSync(join(root, c.mac!.icon!)).subarray(0, 4).toString('latin1')).toBe('icns');
    const ico = readFileSync(join(root, c.win!.icon!));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]); // ICONDIR: reserved, type icon
    expect(ico.readUInt16LE(4)).toBeGreaterThanOrEqual(5);
    const dir = join(root, c.linux!.icon!);
    for (const s of [16, 32, 48, 128, 256, 512]) expect(pngSize(join(dir, `${s}x${s}.png`))).toEqual([s, s]);
    // The window and tray read these at run time, so they are packed into the app.
    const files = (c.files as { filter: string[] }[]).flatMap((f) => f.filter);
    expect(files).toEqual(expect.arrayContaining(['resources/icons/**', 'resources/trayTemplate*.png']));
    for (const f of ['trayTemplate.png', 'trayTemplate@2x.png'])
      expect(existsSync(join(root, 'resources', f)), f).toBe(true);
  });

  it('native modules (keytar) are unpacked from the asar; mooring:// is registered', async () => {
    const c = await load();
    expect(c.asarUnpack).toEqual(expect.arrayContaining(['node_modules/keytar/**', '**/*.node']));
    const protocols = (Array.isArray(c.protocols) ? c.protocols : [c.protocols]).flatMap(
      (p) => p?.schemes ?? [],
    );
    expect(protocols).toContain('mooring');
    expect(c.linux?.mimeTypes).toContain('x-scheme-handler/mooring');
  });

  it('the README the Help menu opens ships outside the asar', async () => {
    const c = await load();
    expect(c.extraResources).toEqual([{ from: 'README.md', to: 'README.md' }]);
    expect(readFileSync(join(root, 'src-main/electron/main.ts'), 'utf8')).toContain(
      "join(process.resourcesPath, 'README.md')",
    );
  });

  it('a misspelt key is rejected by the schema (so the checks above read what electron-builder reads)', async () => {
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'mooring-builder-'));
    try {
      writeFileSync(
        join(dir, 'electron-builder.yml'),
        yml.replace('hardenedRuntime: true', 'hardenedRuntim: true'),
      );
      writeFileSync(join(dir, 'package.json'), readFileSync(join(root, 'package.json')));
      await expect(load(dir, join(dir, 'electron-builder.yml'))).rejects.toThrow(
        /configuration\.mac should be/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('npm run dist builds the app, then packages it for this platform without publishing', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.dist).toBe('electron-vite build && electron-builder --publish never');
  });
});

describe('resources/ icons', () => {
  it('are what scripts/generateIcons.mjs makes from resources/icon.svg and tray.svg today', () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts/generateIcons.mjs'), '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  });

  it('each PNG has the size its name says; the tray template is 16 px at 1x and 32 px at 2x', () => {
    for (const s of [16, 24, 32, 48, 64, 128, 256, 512, 1024])
      expect(pngSize(join(root, `resources/icons/${s}x${s}.png`))).toEqual([s, s]);
    expect(pngSize(join(root, 'resources/trayTemplate.png'))).toEqual([16, 16]);
    expect(pngSize(join(root, 'resources/trayTemplate@2x.png'))).toEqual([32, 32]);
  });
});
