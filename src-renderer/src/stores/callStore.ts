// The tool calls this window has heard of, each as its current state: the one tool-call stream
// (docs/tool-calls.md, "One lifecycle, one stream") folded per call, newest first, bounded. The chat's
// cards and the playground's read it; nothing else keeps a call's phase.
import { create } from 'zustand';
import { callKey, foldCallEvent } from '@shared/toolCall';
import type { WireToolCallEvent } from '@shared/wire';

export const MAX_CALLS = 100;

export interface CallsState {
  /** Each call's state by `callKey`. */
  calls: Record<string, WireToolCallEvent>;
  /** Call keys, newest first. */
  order: string[];
  /** Folds one event in; an event no newer (`seq`) than the state held changes nothing. */
  apply(e: WireToolCallEvent): void;
  clear(): void;
}

export const useCalls = create<CallsState>((set) => ({
  calls: {},
  order: [],
  apply: (e) =>
    set((s) => {
      const key = callKey(e);
      const prev = s.calls[key];
      const next = foldCallEvent(prev, e);
      if (next === prev) return s;
      const calls = { ...s.calls, [key]: next };
      if (prev) return { calls };
      const order = [key, ...s.order];
      for (const gone of order.splice(MAX_CALLS)) delete calls[gone];
      return { calls, order };
    }),
  clear: () => set({ calls: {}, order: [] }),
}));
