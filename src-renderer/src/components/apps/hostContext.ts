// What Mooring tells an MCP App view about where it is shown (extension io.modelcontextprotocol/ui, spec
// 2026-01-26, "Host Context in McpUiInitializeResult", "Theming" and "Container Dimensions"): the theme,
// Mooring's look as the spec's standard CSS variables, locale and time zone, the device's input, and the
// size of the view's frame. Pure: the environment comes in as values (useHostContext.ts reads it live).
import type {
  McpUiDisplayMode,
  McpUiHostContext,
  McpUiStyleVariableKey,
  McpUiStyles,
} from '@modelcontextprotocol/ext-apps/app-bridge';

/** Who the host is: the bridge's `hostInfo`, and the context's `userAgent` ("host application identifier"). */
export const HOST_INFO = { name: 'Mooring', version: '0.1.0' } as const;

/** The tallest an inline view may grow (it sizes itself below that: `ui/notifications/size-changed`). */
export const MAX_INLINE_HEIGHT = 720;

export const DISPLAY_MODES: McpUiDisplayMode[] = ['inline', 'fullscreen', 'pip'];

/**
 * The spec's variables in terms of Mooring's design tokens (src-renderer/src/ui/tokens.css). A view has
 * no tokens of its own, so every `var(--token)` is replaced by the token's value in the current theme
 * before it is sent. Resolved values rather than the spec's suggested `light-dark()`: `light-dark()` picks
 * by the view's own `color-scheme`, which a view that applies only the variables never sets, and it would
 * show the light colours in a dark app. The theme switching re-sends them (a host-context change).
 * Where Mooring has no token (bold, a hairline) the value is what Mooring draws; heading sizes past 2xl
 * and the xs radius are left out, and a view falls back to its own.
 */
export const STYLE_VARIABLES: Partial<Record<McpUiStyleVariableKey, string>> = {
  '--color-background-primary': 'var(--color-surface)',
  '--color-background-secondary': 'var(--color-bg)',
  '--color-background-tertiary': 'var(--color-surface-sunken)',
  '--color-background-inverse': 'var(--color-text)',
  '--color-background-ghost': 'var(--color-hover)',
  '--color-background-info': 'var(--color-accent-soft)',
  '--color-background-danger': 'var(--color-danger-soft)',
  '--color-background-success': 'var(--color-success-soft)',
  '--color-background-warning': 'var(--color-warning-soft)',
  '--color-background-disabled': 'var(--color-surface-sunken)',
  '--color-text-primary': 'var(--color-text)',
  '--color-text-secondary': 'var(--color-text-muted)',
  '--color-text-tertiary': 'var(--color-text-subtle)',
  '--color-text-inverse': 'var(--color-surface)',
  '--color-text-ghost': 'var(--color-text-subtle)',
  '--color-text-info': 'var(--color-accent-text)',
  '--color-text-danger': 'var(--color-danger-text)',
  '--color-text-success': 'var(--color-success-text)',
  '--color-text-warning': 'var(--color-warning-text)',
  '--color-text-disabled': 'var(--color-text-subtle)',
  '--color-border-primary': 'var(--color-border)',
  '--color-border-secondary': 'var(--color-border-strong)',
  '--color-border-tertiary': 'var(--color-surface-sunken)',
  '--color-border-inverse': 'var(--color-text)',
  '--color-border-ghost': 'transparent',
  '--color-border-info': 'var(--color-accent)',
  '--color-border-danger': 'var(--color-danger)',
  '--color-border-success': 'var(--color-success)',
  '--color-border-warning': 'var(--color-warning)',
  '--color-border-disabled': 'var(--color-border)',
  '--color-ring-primary': 'var(--color-accent)',
  '--color-ring-secondary': 'var(--color-border-strong)',
  '--color-ring-inverse': 'var(--color-surface)',
  '--color-ring-info': 'var(--color-accent)',
  '--color-ring-danger': 'var(--color-danger)',
  '--color-ring-success': 'var(--color-success)',
  '--color-ring-warning': 'var(--color-warning)',
  '--font-sans': 'var(--font-sans)',
  '--font-mono': 'var(--font-mono)',
  '--font-weight-normal': 'var(--weight-normal)',
  '--font-weight-medium': 'var(--weight-medium)',
  '--font-weight-semibold': 'var(--weight-semibold)',
  '--font-weight-bold': '700',
  '--font-text-xs-size': 'var(--text-xs)',
  '--font-text-sm-size': 'var(--text-sm)',
  '--font-text-md-size': 'var(--text-md)',
  '--font-text-lg-size': 'var(--text-lg)',
  '--font-heading-xs-size': 'var(--text-md)',
  '--font-heading-sm-size': 'var(--text-lg)',
  '--font-heading-md-size': 'var(--text-xl)',
  '--font-heading-lg-size': 'var(--text-2xl)',
  '--font-text-xs-line-height': 'var(--leading-normal)',
  '--font-text-sm-line-height': 'var(--leading-normal)',
  '--font-text-md-line-height': 'var(--leading-normal)',
  '--font-text-lg-line-height': 'var(--leading-normal)',
  '--font-heading-xs-line-height': 'var(--leading-tight)',
  '--font-heading-sm-line-height': 'var(--leading-tight)',
  '--font-heading-md-line-height': 'var(--leading-tight)',
  '--font-heading-lg-line-height': 'var(--leading-tight)',
  '--border-radius-sm': 'var(--radius-sm)',
  '--border-radius-md': 'var(--radius-md)',
  '--border-radius-lg': 'var(--radius-lg)',
  '--border-radius-xl': 'var(--radius-xl)',
  '--border-radius-full': 'var(--radius-full)',
  '--border-width-regular': '1px',
  '--shadow-hairline': '0 0 0 1px var(--color-border)',
  '--shadow-sm': 'var(--shadow-sm)',
  '--shadow-md': 'var(--shadow-md)',
  '--shadow-lg': 'var(--shadow-lg)',
};

/**
 * The variables with Mooring's tokens resolved by `read` (a token's value in the current theme). A token
 * that reads empty (renamed in tokens.css) leaves its variable out rather than send a broken value.
 */
export function styleVariables(read: (token: string) => string): McpUiStyles {
  const out: Partial<Record<McpUiStyleVariableKey, string>> = {};
  for (const [key, value] of Object.entries(STYLE_VARIABLES) as [McpUiStyleVariableKey, string][]) {
    let missing = false;
    const resolved = value.replace(/var\((--[\w-]+)\)/g, (_, token: string) => {
      const v = read(token).trim();
      if (!v) missing = true;
      return v;
    });
    if (!missing) out[key] = resolved;
  }
  return out as McpUiStyles;
}

/** What the renderer knows of its surroundings, read by useHostContext.ts. */
export interface HostEnvironment {
  dark: boolean;
  /** A design token's value in the current theme (`getComputedStyle(root).getPropertyValue`). */
  read: (token: string) => string;
  locale: string;
  timeZone: string;
  /** The desktop shell (Electron) rather than a browser tab (`mooring web`). */
  desktop: boolean;
  touch: boolean;
  hover: boolean;
}

export interface FrameSize {
  width: number;
  height: number;
}

/**
 * The spec's container dimensions: inline, the card fixes the width and the view chooses its height up
 * to a maximum; fullscreen and picture-in-picture fix both (the view fills its frame).
 */
export function containerDimensions(
  mode: McpUiDisplayMode,
  size: FrameSize,
): NonNullable<McpUiHostContext['containerDimensions']> {
  const width = Math.round(size.width);
  return mode === 'inline'
    ? { width, maxHeight: MAX_INLINE_HEIGHT }
    : { width, height: Math.round(size.height) };
}

export function hostContextOf(o: {
  env: HostEnvironment;
  mode: McpUiDisplayMode;
  /** The view's frame as laid out; unknown before it is. */
  size?: FrameSize;
  tool: string;
}): McpUiHostContext {
  const { env } = o;
  return {
    toolInfo: { tool: { name: o.tool, inputSchema: { type: 'object' } } },
    theme: env.dark ? 'dark' : 'light',
    // No `css.fonts`: Mooring draws with system faces only (tokens.css), and a font file from the app's
    // origin would need the view's font-src widened (core/apps/viewCsp.ts), which the spec forbids.
    styles: { variables: styleVariables(env.read) },
    displayMode: o.mode,
    availableDisplayModes: DISPLAY_MODES,
    ...(o.size && o.size.width > 0 ? { containerDimensions: containerDimensions(o.mode, o.size) } : {}),
    locale: env.locale,
    timeZone: env.timeZone,
    userAgent: `${HOST_INFO.name}/${HOST_INFO.version}`,
    platform: env.desktop ? 'desktop' : 'web',
    deviceCapabilities: { touch: env.touch, hover: env.hover },
  };
}
