// The Electron shell's hardening, checked where it is written (docs/desktop-shell.md, "The desktop shell"): the window's
// webPreferences, navigation / new-window / webview denial, the permission handlers, the sender check, the
// CSP of both hosts and the packaging fuses. The Electron binary cannot run on every machine, so
// each check also runs on a weakened copy to prove it fails when a setting is loosened.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DebugLogger } from 'builder-util';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../src-main/core/web/contentSecurity';
import { cspProblems, fuseProblems, metaCsp, shellProblems } from './shellChecks';

const root = resolve(import.meta.dirname, '../..');
const mainTs = readFileSync(join(root, 'src-main/electron/main.ts'), 'utf8');

/** main.ts with one exact piece of text replaced; fails loudly if the text is gone (the test would be moot). */
function weakened(from: string | RegExp, to: string): string {
  const out = mainTs.replace(from, to);
  expect(out, `main.ts no longer contains ${String(from)}: update this test`).not.toBe(mainTs);
  return out;
}

describe('Electron main process (src-main/electron/main.ts)', () => {
  it('is locked down: webPreferences, navigation, windows, webviews, permissions, CSP header, sender check', () => {
    expect(shellProblems(mainTs)).toEqual([]);
  });

  it.each([
    ['contextIsolation: true', 'contextIsolation: false', /contextIsolation/],
    ['sandbox: true', 'sandbox: false', /sandbox/],
    ['nodeIntegration: false', 'nodeIntegration: true', /nodeIntegration must/],
    ['webSecurity: true', 'webSecurity: false', /webSecurity/],
    ['webSecurity: true,', '', /webSecurity/],
    ['webviewTag: false', 'webviewTag: true', /webviewTag/],
    ['sandbox: true,', 'sandbox: true, nodeIntegrationInSubFrames: true,', /nodeIntegrationInSubFrames/],
    ['sandbox: true,', 'sandbox: true, allowRunningInsecureContent: true,', /allowRunningInsecureContent/],
    ["disableBlinkFeatures: 'Auxclick'", "disableBlinkFeatures: ''", /Auxclick/],
    ['preload: PRELOAD,', 'preload: PRELOAD, ...extra,', /spreads/],
  ])('fails when %s becomes %s', (from, to, problem) => {
    expect(shellProblems(weakened(from, to)).join('\n')).toMatch(problem);
  });

  it.each([
    [
      'will-navigate allows everything',
      /if \(!url\.startsWith[^\n]*preventDefault\(\);/,
      '',
      /will-navigate/,
    ],
    [
      'a window is allowed',
      "return { action: 'deny' };",
      "return { action: 'allow' };",
      /setWindowOpenHandler/,
    ],
    [
      'a window is allowed on one path',
      "return { action: 'deny' };",
      "if (url) return { action: 'allow' };\n    return { action: 'deny' };",
      /setWindowOpenHandler/,
    ],
    [
      'webviews may attach',
      "on('will-attach-webview', (event) => event.preventDefault())",
      "on('will-attach-webview', () => {})",
      /will-attach-webview/,
    ],
    [
      'lock-down only for the first window',
      "app.on('web-contents-created', (_event, contents) => lockDown(contents));",
      '',
      /web-contents-created/,
    ],
    ['a permission is granted', 'callback(false)', 'callback(true)', /setPermissionRequestHandler/],
    [
      'a view is granted past its rule',
      'callback(allowViewPermission(',
      'callback(true || allowViewPermission(',
      /setPermissionRequestHandler/,
    ],
    [
      'permission checks pass',
      '? allowViewPermission(checkAsk',
      '? true || allowViewPermission(checkAsk',
      /setPermissionCheckHandler/,
    ],
    [
      'a remote page is loaded',
      'loadURL(`${APP_ORIGIN}/index.html#/${state.lastScreen()}`)',
      "loadURL('https://example.com/')",
      /loadURL/,
    ],
    ['app:// responses lose the CSP', '...SECURITY_HEADERS', "'x-any': '1'", /SECURITY_HEADERS/],
    [
      'the core opens links unchecked',
      'openExternal: openExternalLink',
      'openExternal: (url) => shell.openExternal(url)',
      /shell\.openExternal without/,
    ],
    [
      'the link check is dropped',
      'if (!isAllowedExternalLink(url, isSafeExternalUrl))',
      'if (!url)',
      /shell\.openExternal without/,
    ],
    [
      'IPC skips the sender check',
      'const trusted = isTrustedSender({',
      'const trusted = Boolean({',
      /isTrustedSender/,
    ],
  ])('fails when %s', (_what, from, to, problem) => {
    expect(shellProblems(weakened(from, to)).join('\n')).toMatch(problem);
  });
});

describe('Content Security Policy (scripts from our origin only)', () => {
  it('browser mode and app:// send a policy without inline or eval scripts', () => {
    expect(SECURITY_HEADERS['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(cspProblems(CONTENT_SECURITY_POLICY)).toEqual([]);
    expect(CONTENT_SECURITY_POLICY).toMatch(/frame-ancestors 'none'/);
  });

  it('the renderer page carries the same script policy in its meta tag (source and built)', () => {
    const pages = [join(root, 'src-renderer/index.html'), join(root, 'out/renderer/index.html')];
    for (const page of pages) {
      let html: string;
      try {
        html = readFileSync(page, 'utf8');
      } catch {
        if (page.includes('/out/')) continue; // not built in this run; the source page is still checked
        throw new Error(`${page} is missing`);
      }
      const policy = metaCsp(html);
      expect(policy, `${page} has no CSP meta tag`).toBeDefined();
      expect(cspProblems(policy!), page).toEqual([]);
      // No inline script in the page itself (the policy would block it, and it must not be needed).
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    }
  });

  it("the built stylesheets load their fonts from files: font-src 'self' refuses data: URLs", () => {
    // Vite inlines small assets as data: URLs; a font inlined so (KaTeX's smallest) is blocked by the policy
    // and its glyphs fall back to another face. Both hosts carry the same font-src.
    const fontSrc = (policy: string) => policy.match(/font-src ([^;]*)/)?.[1]?.split(' ') ?? [];
    const policies = [
      CONTENT_SECURITY_POLICY,
      metaCsp(readFileSync(join(root, 'src-renderer/index.html'), 'utf8'))!,
    ];
    const assets = join(root, 'out/renderer/assets');
    const inlined = readdirSync(assets)
      .filter((f) => f.endsWith('.css'))
      .flatMap((f) => [...readFileSync(join(assets, f), 'utf8').matchAll(/url\(["']?data:font\/[a-z0-9-]+/g)])
      .map((m) => m[0]);
    for (const policy of policies) if (!fontSrc(policy).includes('data:')) expect(inlined).toEqual([]);
  });

  it.each([
    ["script-src 'self'", "script-src 'self' 'unsafe-inline'"],
    ["script-src 'self'", "script-src 'self' 'unsafe-eval'"],
    ["script-src 'self'", "script-src 'self' https://cdn.example.com"],
    ["script-src 'self'", "script-src 'self' data:"],
    ["default-src 'self'; script-src 'self'", 'default-src *'],
    ["object-src 'none'", "object-src 'self'"],
  ])('a policy fails when %s becomes %s', (from, to) => {
    expect(CONTENT_SECURITY_POLICY).toContain(from);
    expect(cspProblems(CONTENT_SECURITY_POLICY.replace(from, to))).not.toEqual([]);
  });
});

describe('packaging fuses (electron-builder.yml, read by electron-builder itself)', () => {
  async function load(dir: string, file: string) {
    const config = await getConfig(dir, file, null);
    // Its own schema: a misspelt fuse name would otherwise be ignored silently.
    await validateConfiguration(config, new DebugLogger(false));
    return config;
  }

  it('RunAsNode off, no NODE_OPTIONS or inspect flags, app only from an integrity-checked asar', async () => {
    const config = await load(root, join(root, 'electron-builder.yml'));
    expect(fuseProblems(config)).toEqual([]);
  });

  it.each([
    ['runAsNode: false', 'runAsNode: true'],
    ['enableNodeOptionsEnvironmentVariable: false', 'enableNodeOptionsEnvironmentVariable: true'],
    ['onlyLoadAppFromAsar: true', 'onlyLoadAppFromAsar: false'],
    ['enableEmbeddedAsarIntegrityValidation: true', 'enableEmbeddedAsarIntegrityValidation: false'],
    ['  runAsNode: false\n', ''],
  ])('fails when %j becomes %j', async (from, to) => {
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    expect(yml).toContain(from);
    const dir = mkdtempSync(join(tmpdir(), 'mooring-fuses-'));
    try {
      writeFileSync(join(dir, 'electron-builder.yml'), yml.replace(from, to));
      writeFileSync(join(dir, 'package.json'), readFileSync(join(root, 'package.json')));
      expect(fuseProblems(await load(dir, join(dir, 'electron-builder.yml')))).not.toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a misspelt fuse is rejected by the schema rather than ignored', async () => {
    const yml = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'mooring-fuses-'));
    try {
      writeFileSync(
        join(dir, 'electron-builder.yml'),
        yml.replace('runAsNode: false', 'runAsNode: false\n  runAsNod: false'),
      );
      writeFileSync(join(dir, 'package.json'), readFileSync(join(root, 'package.json')));
      await expect(load(dir, join(dir, 'electron-builder.yml'))).rejects.toThrow(/electronFuses/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
