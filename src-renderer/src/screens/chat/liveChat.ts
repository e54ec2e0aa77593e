// The chat's and the dialogs' share of the one live stream (useLiveEvents): ChatEvents go to the live
// chat store (drafts, the messages appended since a snapshot); server interactions update the pending
// list. A call's lifecycle is not here: it is a `toolCall` event, for the calls store.
import type { QueryClient } from '@tanstack/react-query';
import type { Interaction } from '@shared/interactions';
import { patchLive, refetchFromNow } from '../../api/liveCache';
import type { UiEventHandlers } from '../../api/liveEvents';
import type { useTRPC } from '../../api/trpc';
import { useChat } from './chatStore';

type Trpc = ReturnType<typeof useTRPC>;

/** The handlers of the chat's and the dialogs' events, for the one table (api/liveEvents.ts). */
export function chatEventHandlers(
  qc: QueryClient,
  trpc: Trpc,
): Pick<UiEventHandlers, 'chat' | 'turn' | 'interaction' | 'interactionResolved'> {
  return {
    chat: (e) => {
      const ev = e.event;
      if (ev.type === 'title') {
        // The model named the conversation (saved already): the list and the search re-read it; the open
        // conversation's header takes it as it is (a reload would also make that conversation the active one).
        refetchFromNow(qc, { queryKey: trpc.chat.conversations.queryKey() });
        refetchFromNow(qc, { queryKey: trpc.chat.search.pathKey() });
        const key = trpc.chat.load.queryKey({ id: ev.conversationId });
        const patch = () =>
          qc.setQueryData(key, (d) =>
            d && d.titleSource === 'first-words'
              ? { ...d, summary: { ...d.summary, title: ev.title }, titleSource: 'model' as const }
              : d,
          );
        patch();
        // A load already on the wire (the conversation was opened as its first answer ended) may have been
        // read before the title was saved: its answer gets the title too when it lands.
        if (qc.isFetching({ queryKey: key, exact: true }) > 0) {
          const cache = qc.getQueryCache();
          const stop = cache.subscribe((c) => {
            if (c.type !== 'updated' || c.query.queryHash !== cache.find({ queryKey: key })?.queryHash)
              return;
            if (c.action.type === 'success') patch();
            if (c.action.type === 'success' || c.action.type === 'error') stop();
          });
        }
        return;
      }
      // A conversation nobody has loaded keeps no deltas: its first load reads them from the file
      // (a message is on disk before it is announced).
      if (
        ev.type === 'message-complete' &&
        !qc.getQueryState(trpc.chat.load.queryKey({ id: ev.conversationId }))
      ) {
        useChat.getState().saved(ev.conversationId, ev.message);
        return;
      }
      useChat.getState().apply(ev);
    },
    turn: (e) => {
      useChat.getState().setRunning(e.turn.conversationId, e.turn.running, e.turn.seq);
      // The list shows which conversations answer, and when each was last updated.
      refetchFromNow(qc, { queryKey: trpc.chat.conversations.queryKey() });
      refetchFromNow(qc, { queryKey: trpc.chat.search.pathKey() });
    },
    interaction: (e) =>
      patchLive<Interaction[]>(qc, trpc.interactions.pending.queryKey(), (list) =>
        list?.some((r) => r.id === e.request.id) ? list : [...(list ?? []), e.request],
      ),
    interactionResolved: (e) =>
      patchLive<Interaction[]>(qc, trpc.interactions.pending.queryKey(), (list) =>
        list?.filter((r) => r.id !== e.id),
      ),
  };
}
