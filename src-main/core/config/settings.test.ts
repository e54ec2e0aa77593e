// settings.json (docs/data-on-disk.md, "Data on disk"): defaults, validation with positions, atomic saves, never overwriting an invalid file.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, SettingsSchema } from '@shared/settings';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, saveSettings, SettingsStore, type SettingsChange } from './settings';

let home: string;
let file: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'mooring-settings-'));
  file = join(home, 'settings.json');
});
afterEach(() => rm(home, { recursive: true, force: true }));

describe('settings defaults', () => {
  it('a missing file gives every default', async () => {
    expect(await loadSettings(file)).toEqual({
      yolo: false,
      maxToolIterations: 25,
      titlesFromModel: true,
      modelCapabilities: {},
      codeModeModels: [],
      deferredToolThreshold: { tools: 40, tokens: 8000 },
      osvEndpoint: 'https://api.osv.dev/v1/query',
      providers: {
        default: 'ollama',
        ollama: { baseUrl: 'http://127.0.0.1:11434' },
        openai: {},
        anthropic: {},
      },
      largeResults: { share: 0.2, contextWindows: {} },
      webSessionHours: 10,
      oauthRedirectPort: 33418,
      logLevel: 'info',
      theme: 'system',
      toolSets: [],
    });
  });

  it('a duplicate tool set name or a tool that is not a model tool name is refused with its path', async () => {
    await writeFile(
      file,
      JSON.stringify({
        toolSets: [
          { name: 'A', tools: ['mcp__s__t'] },
          { name: 'A', tools: ['read_file'] },
        ],
      }),
    );
    await expect(loadSettings(file)).rejects.toThrow(/toolSets\[1\]\.name: duplicate tool set "A"/);
    await expect(loadSettings(file)).rejects.toThrow(/toolSets\[1\]\.tools\[0\]: must be a model tool name/);
  });

  it('a partial section keeps the defaults of its other keys', async () => {
    await writeFile(
      file,
      '{ "deferredToolThreshold": { "tools": 10 }, "providers": { "openai": { "baseUrl": "http://127.0.0.1:9999/v1" } } }',
    );
    const s = await loadSettings(file);
    expect(s.deferredToolThreshold).toEqual({ tools: 10, tokens: 8000 });
    expect(s.providers).toEqual({
      default: 'ollama',
      ollama: { baseUrl: 'http://127.0.0.1:11434' },
      openai: { baseUrl: 'http://127.0.0.1:9999/v1' },
      anthropic: {},
    });
  });

  it('DEFAULT_SETTINGS is the parse of {}', () => {
    expect(DEFAULT_SETTINGS).toEqual(SettingsSchema.parse({}));
  });
});

describe('settings validation', () => {
  async function messageFor(text: string): Promise<string> {
    await writeFile(file, text);
    const err = (await loadSettings(file).catch((e: unknown) => e)) as {
      code: string;
      message: string;
      hint: string;
    };
    expect(err.code).toBe('config_invalid');
    expect(err.hint).toMatch(/delete it to go back to the defaults/);
    return err.message;
  }

  it.each([
    ['maxToolIterations 0', '{"maxToolIterations": 0}', '1:2: maxToolIterations: must be at least 1'],
    ['maxToolIterations 2.5', '{"maxToolIterations": 2.5}', '1:2: maxToolIterations: must be a whole number'],
    ['yolo as a string', '{"yolo": "yes"}', '1:2: yolo: Invalid input: expected boolean, received string'],
    ['unknown key', '{"yollo": true}', '1:2: yollo: unknown key "yollo"'],
    [
      'unknown provider',
      '{"providers": {"default": "gemini"}}',
      '1:16: providers.default: must be one of "ollama", "openai", "anthropic"',
    ],
    [
      'osvEndpoint not http(s)',
      '{"osvEndpoint": "file:///etc/passwd"}',
      '1:2: osvEndpoint: must start with http:// or https://',
    ],
    ['oauthRedirectPort 80', '{"oauthRedirectPort": 80}', '1:2: oauthRedirectPort: must be at least 1024'],
    [
      'oauthRedirectPort 70000',
      '{"oauthRedirectPort": 70000}',
      '1:2: oauthRedirectPort: must be at most 65535',
    ],
    [
      'logLevel verbose',
      '{"logLevel": "verbose"}',
      '1:2: logLevel: must be one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"',
    ],
    [
      'negative tool threshold',
      '{"deferredToolThreshold": {"tools": -1}}',
      '1:28: deferredToolThreshold.tools: must be at least 0',
    ],
    ['comment in the file', '{ /* x */ }', '1:3: comments are not allowed in this file'],
  ])('%s', async (_name, text, expected) => {
    expect(await messageFor(text)).toBe(`${file}:${expected}`);
  });
});

describe('saving settings', () => {
  it('writes the full settings atomically, pretty, with a trailing newline', async () => {
    const saved = await saveSettings(file, { yolo: true });
    expect(saved.yolo).toBe(true);
    const text = await readFile(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({ ...DEFAULT_SETTINGS, yolo: true });
    expect(await readdir(home)).toEqual(['settings.json']);
  });

  it('an invalid value writes nothing', async () => {
    await saveSettings(file, { yolo: true });
    const before = await readFile(file, 'utf8');
    await expect(saveSettings(file, { maxToolIterations: -3 })).rejects.toMatchObject({
      code: 'config_invalid',
      message: 'maxToolIterations: must be at least 1',
    });
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('an invalid file on disk is never overwritten', async () => {
    await writeFile(file, '{"yolo": tru}');
    await expect(saveSettings(file, {})).rejects.toMatchObject({ code: 'config_invalid' });
    const store = new SettingsStore({ file });
    await expect(store.update((s) => ({ ...s, yolo: false }))).rejects.toMatchObject({
      code: 'config_invalid',
    });
    expect(await readFile(file, 'utf8')).toBe('{"yolo": tru}');
  });

  it('SettingsStore.update serialises concurrent changes so none is lost', async () => {
    const store = SettingsStore.forHome(home);
    await Promise.all([
      store.update((s) => ({ ...s, yolo: true })),
      store.update((s) => ({ ...s, maxToolIterations: 7 })),
      store.update((s) => ({ ...s, logLevel: 'debug' })),
    ]);
    expect(await store.get()).toMatchObject({ yolo: true, maxToolIterations: 7, logLevel: 'debug' });
  });

  it('SettingsStore.watch reports an external edit', async () => {
    const store = SettingsStore.forHome(home);
    const seen: SettingsChange[] = [];
    const stop = await store.watch((c) => seen.push(c));
    await writeFile(file, '{"logLevel":"warn"}');
    await expect
      // An older Mooring's "warn" reads as the MCP level "warning".
      .poll(() => seen.find((c) => c.ok && c.settings.logLevel === 'warning'), { timeout: 10_000 })
      .toBeTruthy();
    stop();
    await store.close();
  });
});
