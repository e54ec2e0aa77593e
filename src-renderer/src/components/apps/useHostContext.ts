// The host context of one MCP App view, kept live (extension io.modelcontextprotocol/ui, spec 2026-01-26,
// "ui/notifications/host-context-changed": the theme toggles, the window or panel resizes, the display
// mode changes). The app's theme through the root element's `data-theme` (shell/theme.ts: the OS's choice
// or the one in Settings), the input devices and the language through their media queries and events;
// the view's frame through a ResizeObserver. AppView.tsx hands each new context
// to the bridge's `setHostContext`, which sends the view only what changed.
import type { McpUiDisplayMode, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { isDark } from '../../shell/theme';
import { hostContextOf, type FrameSize, type HostEnvironment } from './hostContext';

/** The queries whose answers are in the context; a change to any of them is news to the view. */
const COARSE = '(any-pointer: coarse)';
const HOVER = '(any-hover: hover)';

function readEnvironment(): HostEnvironment {
  const root = getComputedStyle(document.documentElement);
  return {
    dark: isDark(),
    read: (token) => root.getPropertyValue(token),
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    desktop: Boolean(window.mooring),
    // Touch: a touch screen anywhere, even beside a mouse; hover: any pointer that can hover.
    touch: navigator.maxTouchPoints > 0 || matchMedia(COARSE).matches,
    hover: matchMedia(HOVER).matches,
  };
}

function measure(el: Element | null): FrameSize | undefined {
  if (!el) return undefined;
  const r = el.getBoundingClientRect();
  return { width: Math.round(r.width), height: Math.round(r.height) };
}

/**
 * The context as it is now (`context`, for change notifications) and a fresh reading of it (`snapshot`,
 * for the bridge's first context: its frame is laid out by then, before any resize has been observed).
 */
export function useHostContext(o: {
  frame: RefObject<HTMLIFrameElement | null>;
  mode: McpUiDisplayMode;
  tool: string;
}): { context: McpUiHostContext; snapshot: () => McpUiHostContext } {
  const [envVersion, setEnvVersion] = useState(0);
  const [size, setSize] = useState<FrameSize>();

  useEffect(() => {
    const bump = () => setEnvVersion((n) => n + 1);
    const queries = [COARSE, HOVER].map((q) => matchMedia(q));
    for (const q of queries) q.addEventListener('change', bump);
    window.addEventListener('languagechange', bump);
    const theme = new MutationObserver(bump);
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      for (const q of queries) q.removeEventListener('change', bump);
      window.removeEventListener('languagechange', bump);
      theme.disconnect();
    };
  }, []);

  useEffect(() => {
    const el = o.frame.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      const next = measure(el);
      setSize((prev) =>
        prev && next && prev.width === next.width && prev.height === next.height ? prev : next,
      );
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [o.frame]);

  const context = useMemo(
    () => hostContextOf({ env: readEnvironment(), mode: o.mode, tool: o.tool, ...(size ? { size } : {}) }),
    // The environment is re-read whenever one of its sources said it changed.
    [envVersion, size, o.mode, o.tool],
  );
  const latest = useRef(o);
  latest.current = o;
  const snapshot = () => {
    const { frame, mode, tool } = latest.current;
    const now = measure(frame.current);
    return hostContextOf({ env: readEnvironment(), mode, tool, ...(now ? { size: now } : {}) });
  };
  return { context, snapshot };
}
