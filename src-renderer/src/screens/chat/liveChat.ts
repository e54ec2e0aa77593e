// The chat's and the dialogs' share of the one live stream (useLiveEvents): ChatEvents update the open
// conversation's cached messages and the live store; server interactions update the pending list.
import type { QueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '@shared/chat';
import type { Interaction } from '@shared/interactions';
import type { UiEvent } from '@shared/wire';
import type { useTRPC } from '../../api/trpc';
import { useChat } from './chatStore';

type Trpc = ReturnType<typeof useTRPC>;
interface Loaded {
  messages: ChatMessage[];
  running: boolean;
}

/** Handles the chat and interaction events; returns false for every other kind. */
export function applyChatUiEvent(e: UiEvent, qc: QueryClient, trpc: Trpc): boolean {
  switch (e.type) {
    case 'chat': {
      const ev = e.event;
      useChat.getState().apply(ev);
      if (ev.type === 'tool-call') {
        // Self-healing: a call whose assistant message this view has not got (its message-complete raced
        // the conversation's first load, or was missed while the stream reconnected) makes the view read
        // the conversation again; the step is on disk before any of its events are sent.
        const key = trpc.chat.load.queryKey({ id: ev.conversationId });
        const data = qc.getQueryData<Loaded>(key);
        const known = data?.messages.some(
          (m) => m.role === 'assistant' && m.toolCalls.some((c) => c.id === ev.call.id),
        );
        if (data && !known && qc.getQueryState(key)?.fetchStatus !== 'fetching')
          void qc.invalidateQueries({ queryKey: key, exact: true });
      }
      if (ev.type === 'message-complete') {
        const key = trpc.chat.load.queryKey({ id: ev.conversationId });
        const cached = qc.setQueryData<Loaded>(key, (c) =>
          c && !c.messages.some((m) => m.id === ev.message.id)
            ? { ...c, messages: [...c.messages, ev.message] }
            : c,
        );
        // A load in flight read the file before this step was appended: read it again (the step is
        // on disk before its event is sent), so no message is lost to the race.
        if (!cached || qc.getQueryState(key)?.fetchStatus === 'fetching')
          void qc.invalidateQueries({ queryKey: key, exact: true });
      }
      return true;
    }
    case 'turn':
      useChat.getState().setRunning(e.turn.conversationId, e.turn.running);
      void qc.invalidateQueries({ queryKey: trpc.chat.conversations.queryKey() });
      void qc.invalidateQueries({ queryKey: trpc.chat.search.pathKey() });
      if (!e.turn.running)
        void qc.invalidateQueries({ queryKey: trpc.chat.load.queryKey({ id: e.turn.conversationId }) });
      return true;
    case 'interaction':
      qc.setQueryData<Interaction[]>(trpc.interactions.pending.queryKey(), (list) =>
        list?.some((r) => r.id === e.request.id) ? list : [...(list ?? []), e.request],
      );
      return true;
    case 'interactionResolved':
      qc.setQueryData<Interaction[]>(trpc.interactions.pending.queryKey(), (list) =>
        list?.filter((r) => r.id !== e.id),
      );
      return true;
    default:
      return false;
  }
}
