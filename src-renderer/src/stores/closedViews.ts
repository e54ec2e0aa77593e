// The MCP App views the person closed, by the call they belong to (docs/mcp-apps.md, "MCP Apps"). A card
// mounts again when the chat's list scrolls it back into view or a screen is shown again; a view closed
// there stays closed until the person asks for it again (it came back and polled its server again).
// Held for this window; bounded, the oldest forgotten first.
import { create } from 'zustand';

export const MAX_CLOSED_VIEWS = 500;

interface ClosedViewsState {
  closed: string[];
  setClosed(key: string, closed: boolean): void;
}

/** One key per call's view: its conversation (or the Playground) and the call's id. */
export const closedViewKey = (conversationId: string | undefined, callKey: string) =>
  `${conversationId ?? 'playground'}\n${callKey}`;

export const useClosedViews = create<ClosedViewsState>((set) => ({
  closed: [],
  setClosed: (key, closed) =>
    set((s) => {
      const rest = s.closed.filter((k) => k !== key);
      return { closed: closed ? [...rest, key].slice(-MAX_CLOSED_VIEWS) : rest };
    }),
}));
