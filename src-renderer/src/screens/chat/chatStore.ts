// The chat's live stream as it arrives (issue 5 "Chat"): the text of the answer being streamed, each tool
// call's latest state and progress, which conversations are answering, and which one is open. Messages
// that are complete live in the TanStack Query cache (`chat.load`); this holds only what is in flight.
import { create } from 'zustand';
import type { ChatEvent, ToolCallState } from '@shared/chat';
import type { Progress } from '@shared/toolCall';
import type { ErrorData } from '@shared/errors';

export interface LiveCall {
  state: ToolCallState;
  progress?: Progress;
  text?: string;
}

export interface Draft {
  messageId: string;
  text: string;
}

export interface ChatLiveState {
  /** The open conversation; null = a new one, created by the first message. */
  selected: string | null;
  drafts: Record<string, Draft | undefined>;
  calls: Record<string, LiveCall | undefined>;
  running: Record<string, boolean>;
  errors: Record<string, ErrorData | undefined>;
  select(id: string | null): void;
  setRunning(id: string, running: boolean): void;
  apply(e: ChatEvent): void;
}

export const useChat = create<ChatLiveState>((set) => ({
  selected: null,
  drafts: {},
  calls: {},
  running: {},
  errors: {},
  select: (selected) => set({ selected }),
  setRunning: (id, running) =>
    set((s) => ({
      running: { ...s.running, [id]: running },
      // A new turn starts without the last turn's error.
      ...(running ? { errors: { ...s.errors, [id]: undefined } } : {}),
      // A turn that ended leaves no half-streamed text behind (it was saved, or cancelled and saved).
      ...(!running ? { drafts: { ...s.drafts, [id]: undefined } } : {}),
    })),
  apply: (e) =>
    set((s) => {
      const cid = e.conversationId;
      switch (e.type) {
        case 'text-delta': {
          const d = s.drafts[cid];
          const text = d && d.messageId === e.messageId ? d.text + e.text : e.text;
          return { drafts: { ...s.drafts, [cid]: { messageId: e.messageId, text } } };
        }
        case 'tool-call':
          return {
            calls: {
              ...s.calls,
              [e.call.id]: {
                state: e.state,
                ...(e.progress ? { progress: e.progress } : {}),
                ...(e.text !== undefined ? { text: e.text } : {}),
              },
            },
          };
        case 'message-complete':
          return s.drafts[cid]?.messageId === e.message.id
            ? { drafts: { ...s.drafts, [cid]: undefined } }
            : s;
        case 'error':
          return { errors: { ...s.errors, [cid]: e.error } };
        default:
          return s;
      }
    }),
}));
