// The MCP App views the person closed, by the call they belong to (docs/mcp-apps.md, "MCP Apps"). A card
// mounts again when the chat's list scrolls it back into view, a screen is shown again or the page is
// reloaded; a view closed there stays closed until the person asks for it again (it came back and polled
// its server again). Kept in this origin's localStorage; bounded, the oldest forgotten first.
import { create } from 'zustand';

export const MAX_CLOSED_VIEWS = 500;
const KEY = 'mooring.apps.closedViews';

interface ClosedViewsState {
  closed: string[];
  setClosed(key: string, closed: boolean): void;
}

/** One key per call's view: its conversation (or the Playground) and the call's id. */
export const closedViewKey = (conversationId: string | undefined, callKey: string) =>
  `${conversationId ?? 'playground'}\n${callKey}`;

/** What an earlier page of this origin kept; anything not a list of strings is ignored. */
function remembered(): string[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    if (Array.isArray(saved))
      return saved.filter((k): k is string => typeof k === 'string').slice(-MAX_CLOSED_VIEWS);
  } catch {
    // Storage off or unreadable: nothing remembered.
  }
  return [];
}

export const useClosedViews = create<ClosedViewsState>((set) => ({
  closed: remembered(),
  setClosed: (key, closed) =>
    set((s) => {
      // Another tab of this origin may have closed views since this one loaded: start from what is kept.
      const rest = [...new Set([...remembered(), ...s.closed])].filter((k) => k !== key);
      const next = closed ? [...rest, key].slice(-MAX_CLOSED_VIEWS) : rest;
      try {
        localStorage.setItem(KEY, JSON.stringify(next));
      } catch {
        // Not remembered past this page, still applied.
      }
      return { closed: next };
    }),
}));
