// The chat's live state as it arrives (docs/chat.md, "A turn in the chat"): the text of the answer
// being streamed, the messages appended since a conversation's snapshot was read (each with its index),
// which conversations are answering, their last error, and which one is open. The snapshot itself is
// the TanStack Query cache (`chat.load`); a call's phase is the calls store's (stores/callStore.ts).
// Text deltas arrive one event each, hundreds a second from a fast model, over IPC in the desktop app and
// over server-sent events in browser mode alike; the store takes them in at most once an animation frame,
// and less often when showing them takes long (at most a third of the main thread's time), so a slow or
// busy machine still answers keys; any other change takes in the deltas before it first, so the order of
// events holds (docs/decisions/010-streaming-markdown.md).
import { create } from 'zustand';
import type { ChatEvent, ChatMessage } from '@shared/chat';
import type { ErrorData } from '@shared/errors';

export interface Draft {
  messageId: string;
  text: string;
}

/** A tool call the model is still writing, of a tool with an MCP App view (`tool-input-partial`). */
export interface PartialCall {
  id: string;
  name: string;
  target: { server: string; tool: string };
  arguments: Record<string, unknown>;
}

/**
 * The calls of the answer being streamed. `stopped`: the turn ended before that answer was complete, so
 * its calls never ran; they stay on screen (their views told why) until the next turn or a reload.
 */
export interface PartialCalls {
  messageId: string;
  calls: PartialCall[];
  stopped?: string;
}

/** A message announced after the snapshot was taken: its position in the conversation, and itself. */
export interface Delta {
  index: number;
  message: ChatMessage;
}

export interface ChatLiveState {
  /** The open conversation; null = a new one, created by the first message. */
  selected: string | null;
  /**
   * Which view of a conversation is on screen: a new one keeps its view (and the composer its focus and
   * what was typed since) when its first message creates it (`created`); picking one opens a new view.
   */
  view: string;
  drafts: Record<string, Draft | undefined>;
  deltas: Record<string, Delta[] | undefined>;
  partials: Record<string, PartialCalls | undefined>;
  running: Record<string, boolean>;
  /** The TurnState.seq each `running` is as of: an older answer or event changes nothing. */
  turnSeq: Record<string, number>;
  errors: Record<string, ErrorData | undefined>;
  select(id: string | null): void;
  /** The new conversation on screen was created by its first message: it is `id` now, in the same view. */
  created(id: string): void;
  /** From a `turn` event (`event: true`), or from an answer of `chat.load` / `chat.send`. */
  setRunning(id: string, running: boolean, seq: number, from?: 'event' | 'answer'): void;
  apply(e: ChatEvent): void;
  /**
   * A message was saved in a conversation that keeps no deltas (not loaded yet): the calls it carries
   * are no longer being written, even though the message itself is read later with the conversation.
   */
  saved(id: string, message: ChatMessage): void;
  /** A snapshot of `length` messages arrived: deltas it holds are dropped. */
  covered(id: string, length: number): void;
  /** The conversation branches (edit-and-resend, regenerate): what was announced before is forgotten. */
  forget(id: string): void;
  /** Takes in the text deltas that arrived since the last frame (done once a frame, and before any other change). */
  flushText(): void;
  /** Set by New conversation and the shortcut; the composer takes focus and clears it. */
  composerFocus: boolean;
  focusComposer(on?: boolean): void;
}

type TextDelta = Extract<ChatEvent, { type: 'text-delta' }>;

/** The next animation frame; a timer where there are no frames (a test without a DOM). */
const nextFrame = (f: () => void): void => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(f);
  else setTimeout(f, 16);
};
/** New-conversation views opened so far (each its own `view`). */
let newViews = 0;
/** Time between two takes of streamed text, per unit of time the last one took to show. */
const REST_PER_WORK = 2;

export const useChat = create<ChatLiveState>((setNow) => {
  let pending: TextDelta[] = [];
  let frameAsked = false;
  /** performance.now() before which the streamed text is not taken in again (the last take's rest). */
  let restUntil = 0;
  const flushText = () => {
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    setNow((s) => {
      const drafts = { ...s.drafts };
      for (const e of batch) {
        const d = drafts[e.conversationId];
        const text = d && d.messageId === e.messageId ? d.text + e.text : e.text;
        drafts[e.conversationId] = { messageId: e.messageId, text };
      }
      return { drafts };
    });
  };
  const onFrame = () => {
    if (performance.now() < restUntil) return nextFrame(onFrame);
    frameAsked = false;
    const start = performance.now();
    flushText();
    // React renders what the change asked for in a microtask queued before this one.
    queueMicrotask(() => {
      const now = performance.now();
      restUntil = now + (now - start) * REST_PER_WORK;
    });
  };
  type Change = Partial<ChatLiveState> | ((s: ChatLiveState) => Partial<ChatLiveState>);
  const set = (change: Change) => {
    flushText();
    setNow(change);
  };
  return {
    selected: null,
    view: 'new:0',
    drafts: {},
    deltas: {},
    partials: {},
    running: {},
    turnSeq: {},
    errors: {},
    composerFocus: false,
    flushText,
    select: (selected) =>
      set((s) => ({ selected, view: selected ?? (s.selected === null ? s.view : `new:${++newViews}`) })),
    created: (selected) => set({ selected }),
    focusComposer: (on = true) => set({ composerFocus: on }),
    forget: (id) =>
      set((s) => ({
        deltas: { ...s.deltas, [id]: undefined },
        drafts: { ...s.drafts, [id]: undefined },
        partials: { ...s.partials, [id]: undefined },
      })),
    setRunning: (id, running, seq, from = 'event') =>
      set((s) => {
        // An answer read the state as of its seq, so it holds when no newer event came; an event
        // holds when it is newer than what is held.
        const held = s.turnSeq[id] ?? -1;
        if (from === 'event' ? seq <= held : seq < held) return s;
        return {
          running: { ...s.running, [id]: running },
          turnSeq: { ...s.turnSeq, [id]: seq },
          // A new turn starts without the last turn's error.
          ...(running ? { errors: { ...s.errors, [id]: undefined } } : {}),
          // A turn that ended leaves no half-streamed text behind (it was saved, or cancelled and saved).
          ...(!running ? { drafts: { ...s.drafts, [id]: undefined } } : {}),
          // Calls still being written when the turn ended never ran (the loop keeps none of them); a new
          // turn starts without the last one's.
          partials: {
            ...s.partials,
            [id]:
              !running && s.partials[id]
                ? { ...s.partials[id], stopped: 'The turn ended before the model finished this call.' }
                : running && !s.running[id]
                  ? undefined
                  : s.partials[id],
          },
        };
      }),
    apply: (e) => {
      if (e.type === 'text-delta') {
        pending.push(e);
        if (!frameAsked) {
          frameAsked = true;
          nextFrame(onFrame);
        }
        return;
      }
      set((s) => {
        const cid = e.conversationId;
        switch (e.type) {
          case 'tool-input-partial': {
            const held = s.partials[cid];
            const calls = held?.messageId === e.messageId ? held.calls : [];
            const call = { id: e.callId, name: e.name, target: e.target, arguments: e.arguments };
            const i = calls.findIndex((c) => c.id === e.callId);
            return {
              partials: {
                ...s.partials,
                [cid]: {
                  messageId: e.messageId,
                  calls: i < 0 ? [...calls, call] : calls.map((c, j) => (j === i ? call : c)),
                },
              },
            };
          }
          case 'message-complete': {
            const held = s.deltas[cid] ?? [];
            if (held.some((d) => d.index === e.index)) return s;
            return {
              deltas: { ...s.deltas, [cid]: [...held, { index: e.index, message: e.message }] },
              ...(s.drafts[cid]?.messageId === e.message.id
                ? { drafts: { ...s.drafts, [cid]: undefined } }
                : {}),
              ...(carriesPartials(s.partials[cid], e.message)
                ? { partials: { ...s.partials, [cid]: undefined } }
                : {}),
            };
          }
          case 'error':
            return { errors: { ...s.errors, [cid]: e.error } };
          default:
            return s;
        }
      });
    },
    saved: (id, message) =>
      set((s) =>
        carriesPartials(s.partials[id], message) ? { partials: { ...s.partials, [id]: undefined } } : s,
      ),
    covered: (id, length) =>
      set((s) => {
        const held = s.deltas[id];
        if (!held?.some((d) => d.index < length)) return s;
        return { deltas: { ...s.deltas, [id]: held.filter((d) => d.index >= length) } };
      }),
  };
});

/**
 * The saved message carries the calls that were being written, under the same ids; a message cut short by
 * a Stop carries none of them, and they stay to be marked as not run when the turn ends.
 */
function carriesPartials(partials: PartialCalls | undefined, message: ChatMessage): boolean {
  return partials?.messageId === message.id && !(message.role === 'assistant' && message.cancelled);
}

/**
 * The snapshot plus the deltas that continue it, in order. `gap`: a delta lies beyond the next index
 * (an event was missed), so the snapshot must be read again; the messages up to the gap stay shown.
 */
export function withDeltas(
  snapshot: readonly ChatMessage[],
  deltas: readonly Delta[] | undefined,
): { messages: ChatMessage[]; gap: boolean } {
  if (!deltas?.length) return { messages: snapshot as ChatMessage[], gap: false };
  const messages = snapshot.slice();
  for (const d of [...deltas].sort((a, b) => a.index - b.index)) {
    if (d.index < messages.length) continue;
    if (d.index > messages.length) return { messages, gap: true };
    messages.push(d.message);
  }
  return { messages, gap: false };
}
