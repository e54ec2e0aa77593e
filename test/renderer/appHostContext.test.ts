// The host context an MCP App view gets (extension io.modelcontextprotocol/ui, spec 2026-01-26, "Host
// Context" and "Theming"), built from Mooring's real tokens (src-renderer/src/ui/tokens.css, both themes)
// and checked against the extension's own schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpUiHostContextSchema } from '@modelcontextprotocol/ext-apps/app-bridge';
import { describe, expect, it } from 'vitest';
import {
  containerDimensions,
  hostContextOf,
  MAX_INLINE_HEIGHT,
  STYLE_VARIABLES,
  styleVariables,
  type HostEnvironment,
} from '../../src-renderer/src/components/apps/hostContext';

// Here rather than beside hostContext.ts: it reads tokens.css from disk, and the renderer has no Node.
const TOKENS = readFileSync(join(import.meta.dirname, '../../src-renderer/src/ui/tokens.css'), 'utf8');

/** The custom properties a CSS block declares. */
function declarations(block: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of block.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) out.set(m[1]!, m[2]!.replace(/\s+/g, ' '));
  return out;
}
/**
 * A theme's tokens as the browser would resolve them: light at :root, dark overriding in the block for the
 * root's `data-theme="dark"` (set from the OS or Settings > Appearance, src-renderer/src/shell/theme.ts).
 */
function theme(dark: boolean): (token: string) => string {
  const darkAt = TOKENS.indexOf(":root[data-theme='dark']");
  expect(darkAt).toBeGreaterThan(0);
  const tokens = declarations(TOKENS.slice(0, darkAt));
  if (dark) for (const [k, v] of declarations(TOKENS.slice(darkAt))) tokens.set(k, v);
  const read = (token: string): string =>
    (tokens.get(token) ?? '').replace(/var\((--[\w-]+)\)/g, (_, t: string) => read(t));
  return read;
}

const env = (dark: boolean, over: Partial<HostEnvironment> = {}): HostEnvironment => ({
  dark,
  read: theme(dark),
  locale: 'de-DE',
  timeZone: 'Europe/Berlin',
  desktop: false,
  touch: false,
  hover: true,
  ...over,
});

describe('styleVariables', () => {
  it('resolves every variable it maps from a token that exists, in both themes', () => {
    for (const dark of [false, true]) {
      const vars = styleVariables(theme(dark));
      expect(Object.keys(vars).sort()).toEqual(Object.keys(STYLE_VARIABLES).sort());
      for (const [key, value] of Object.entries(vars)) {
        expect(value, key).toBeTruthy();
        expect(value, key).not.toContain('var(');
      }
    }
  });

  it('gives the dark theme its own colours, and the fonts and sizes stay', () => {
    const light = styleVariables(theme(false));
    const dark = styleVariables(theme(true));
    expect(light['--color-background-primary']).toBe('#ffffff');
    expect(dark['--color-background-primary']).toBe('#16191f');
    expect(light['--color-text-primary']).toBe('#111827');
    expect(dark['--color-text-primary']).toBe('#e7e9ee');
    expect(dark['--shadow-hairline']).toBe('0 0 0 1px #2a2f38');
    expect(dark['--font-text-md-size']).toBe(light['--font-text-md-size']);
    expect(dark['--font-sans']).toContain('system-ui');
  });

  it('leaves out a variable whose token is gone rather than send an empty value', () => {
    const vars = styleVariables((t) => (t === '--color-surface' ? '' : theme(false)(t)));
    expect(vars['--color-background-primary']).toBeUndefined();
    expect(vars['--color-text-primary']).toBe('#111827');
  });
});

describe('hostContextOf', () => {
  it("is a valid McpUiHostContext by the extension's schema, with what the spec lists", () => {
    const ctx = hostContextOf({
      env: env(true),
      mode: 'inline',
      size: { width: 640.4, height: 200 },
      tool: 'show_counter',
    });
    expect(McpUiHostContextSchema.safeParse(ctx).success).toBe(true);
    expect(ctx).toMatchObject({
      theme: 'dark',
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen', 'pip'],
      containerDimensions: { width: 640, maxHeight: MAX_INLINE_HEIGHT },
      locale: 'de-DE',
      timeZone: 'Europe/Berlin',
      userAgent: 'Mooring/0.1.0',
      platform: 'web',
      deviceCapabilities: { touch: false, hover: true },
      toolInfo: { tool: { name: 'show_counter' } },
    });
    expect(ctx.styles?.css).toBeUndefined();
    expect(hostContextOf({ env: env(false, { desktop: true }), mode: 'inline', tool: 't' })).toMatchObject({
      theme: 'light',
      platform: 'desktop',
    });
  });

  it('leaves the container out until the frame is laid out', () => {
    expect(hostContextOf({ env: env(false), mode: 'inline', tool: 't' }).containerDimensions).toBeUndefined();
    expect(
      hostContextOf({ env: env(false), mode: 'inline', size: { width: 0, height: 0 }, tool: 't' })
        .containerDimensions,
    ).toBeUndefined();
  });
});

describe('containerDimensions', () => {
  it('fixes the width inline and lets the view choose its height; fixes both in fullscreen and pip', () => {
    expect(containerDimensions('inline', { width: 700, height: 160 })).toEqual({
      width: 700,
      maxHeight: MAX_INLINE_HEIGHT,
    });
    expect(containerDimensions('fullscreen', { width: 1280, height: 770.6 })).toEqual({
      width: 1280,
      height: 771,
    });
    expect(containerDimensions('pip', { width: 378, height: 229 })).toEqual({ width: 378, height: 229 });
  });
});
