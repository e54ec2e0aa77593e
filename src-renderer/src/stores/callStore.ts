// The tool-call cards of this window: each call's lifecycle as it streamed in, keyed by call id.
// It accumulates a stream for display (newest first, bounded), so it lives with the UI state.
import { create } from 'zustand';
import type { WireToolCallEvent } from '@shared/wire';

export interface CallCard {
  id: string;
  server: string;
  tool: string;
  friendlyName: string;
  /** Every phase seen, in order; the last is the current one. */
  events: WireToolCallEvent[];
  arguments?: Record<string, unknown>;
  /** True when the user edited the arguments in the approval dialog. */
  edited?: boolean;
}

export const MAX_CARDS = 50;

export interface CallState {
  cards: CallCard[];
  /** Called before a call starts, so the card shows the arguments sent. */
  started(
    id: string,
    info: { server: string; tool: string; friendlyName: string; arguments: Record<string, unknown> },
  ): void;
  apply(e: WireToolCallEvent): void;
  /** After the call: the arguments the server actually got (the user may have edited them). */
  finished(id: string, args: Record<string, unknown>): void;
  clear(): void;
}

export const useCalls = create<CallState>((set) => ({
  cards: [],
  started: (id, info) =>
    set((s) =>
      s.cards.some((c) => c.id === id)
        ? s
        : { cards: [{ id, ...info, events: [] }, ...s.cards].slice(0, MAX_CARDS) },
    ),
  apply: (e) =>
    set((s) => {
      const at = s.cards.findIndex((c) => c.id === e.id);
      if (at < 0) {
        const card: CallCard = {
          id: e.id,
          server: e.server,
          tool: e.tool,
          friendlyName: e.friendlyName,
          events: [e],
        };
        return { cards: [card, ...s.cards].slice(0, MAX_CARDS) };
      }
      const cards = s.cards.slice();
      const c = cards[at]!;
      cards[at] = { ...c, friendlyName: e.friendlyName, events: [...c.events, e] };
      return { cards };
    }),
  finished: (id, args) =>
    set((s) => ({
      cards: s.cards.map((c) =>
        c.id === id
          ? {
              ...c,
              arguments: args,
              edited: c.arguments !== undefined && JSON.stringify(c.arguments) !== JSON.stringify(args),
            }
          : c,
      ),
    })),
  clear: () => set({ cards: [] }),
}));

export const phaseOf = (c: CallCard) => c.events.at(-1)?.phase ?? 'requested';
