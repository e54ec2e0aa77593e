// The conversation in a virtualised list (long conversations stay smooth: only what is on screen is
// rendered): each of the person's messages, then one answer per turn with the model's text and its tool
// steps in the order they happened (shared/chatTurns.ts) and the model named once, at its foot. The
// list follows the answer as it streams in unless the user scrolled up. While an answer streams, only its
// text re-renders (AnswerText reads the draft, once a frame): the list, the other messages and the turn's
// tool cards do not, and the streamed text becomes the saved message's under the same key, in place.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import {
  attachedResources,
  typedText,
  type AssistantChatMessage,
  type ChatMessage,
  type UserChatMessage,
} from '@shared/chat';
import { groupTurns, type AssistantTurn, type ConversationItem, type TurnStep } from '@shared/chatTurns';
import { AppMessageLabel } from '../../components/apps/AppMessageLabel';
import { Gallery } from '../../components/Gallery';
import { Markdown } from '../../components/Markdown';
import { ChatToolCard } from './ChatToolCard';
import { useChat, type PartialCalls } from './chatStore';
import { ResourceChips } from './ResourceAttach';
import { EditMessage, TurnActions, UserActions, type MessageActionHandlers } from './MessageActions';

/** A turn as shown: its saved steps, then the message still streaming and the calls still being written. */
type ShownTurn = AssistantTurn & { draftId?: string; partial?: PartialCalls };
type ShownItem = ConversationItem | ShownTurn;

export function MessageList({
  conversationId,
  messages,
  actions,
}: {
  conversationId: string;
  messages: ChatMessage[];
  actions?: MessageActionHandlers;
}) {
  // Which message is streaming (not its text: that changes every frame and only AnswerText reads it).
  const draftId = useChat((s) => {
    const id = s.drafts[conversationId]?.messageId;
    return id !== undefined && !messages.some((m) => m.id === id) ? id : undefined;
  });
  const partial = useChat((s) => s.partials[conversationId]);
  const running = useChat((s) => s.running[conversationId] === true);
  const turns = useMemo(() => groupTurns(messages), [messages]);
  const items = useMemo(() => {
    // The store drops the partial calls once the saved message carries them; a stopped answer's stay.
    if (draftId === undefined && !partial) return turns as ShownItem[];
    const live: Pick<ShownTurn, 'draftId' | 'partial'> = {
      ...(draftId !== undefined ? { draftId } : {}),
      ...(partial ? { partial } : {}),
    };
    // The streaming answer belongs to the running turn: the last answer, or a new one after the question.
    const out: ShownItem[] = turns.slice();
    const last = out.at(-1);
    if (last?.kind === 'turn') out[out.length - 1] = { ...last, ...live };
    else out.push({ kind: 'turn', id: (draftId ?? partial?.messageId)!, steps: [], ...live });
    return out;
  }, [turns, draftId, partial]);
  const list = useRef<VirtuosoHandle>(null);
  // The streaming text grows inside the last item; Virtuoso follows new items by itself, not a taller one.
  const grew = useCallback(() => list.current?.autoscrollToBottom(), []);
  return (
    <Virtuoso
      ref={list}
      className="chat-messages"
      data={items}
      // While a turn runs, follow every new step even when a tall tool card pushed the view off the
      // bottom; otherwise follow only when the user is already at the bottom (they may be reading).
      followOutput={(atBottom) => (running || atBottom ? 'auto' : false)}
      initialTopMostItemIndex={Math.max(0, items.length - 1)}
      computeItemKey={(_, item) => (item.kind === 'user' ? item.message.id : item.id)}
      itemContent={(i, item) => (
        <div className="chat-row">
          {item.kind === 'user' ? (
            <UserView message={item.message} actions={actions} />
          ) : (
            <TurnView
              conversationId={conversationId}
              turn={item}
              last={i === items.length - 1}
              actions={actions}
              grew={grew}
            />
          )}
        </div>
      )}
    />
  );
}

const UserView = memo(function UserView({
  message: m,
  actions,
}: {
  message: UserChatMessage;
  actions?: MessageActionHandlers;
}) {
  const [editing, setEditing] = useState(false);
  // What was typed; an attached resource shows as its chip (its text went to the model, not in the bubble).
  const text = typedText(m.content);
  const resources = attachedResources(m.content);
  const images = m.content.flatMap((p) =>
    p.type === 'image' ? [{ base64: p.data, mimeType: p.mimeType, size: p.data.length }] : [],
  );
  if (editing && actions)
    return (
      <EditMessage
        text={text}
        onCancel={() => setEditing(false)}
        onSend={(edited) => {
          setEditing(false);
          actions.onEdit(m.id, edited);
        }}
      />
    );
  return (
    <div className="msg-user-row">
      <div
        className={m.origin === 'app' ? 'msg user from-app' : 'msg user'}
        data-testid={m.origin === 'app' ? 'msg-app' : 'msg-user'}
      >
        {m.origin === 'app' && m.app && <AppMessageLabel app={m.app} />}
        {text && <div className="msg-text">{text}</div>}
        {resources.length > 0 && <ResourceChips resources={resources} />}
        {images.length > 0 && <Gallery images={images} label="your message" />}
      </div>
      <UserActions text={text} idle={actions?.idle === true} onEdit={() => setEditing(true)} />
    </div>
  );
});

const TurnView = memo(function TurnView(props: {
  conversationId: string;
  turn: ShownTurn;
  last: boolean;
  actions?: MessageActionHandlers;
  grew: () => void;
}) {
  const { turn } = props;
  const text = turn.steps.flatMap((s) => (s.kind === 'text' && s.message.text ? [s.message.text] : []));
  const streaming = turn.draftId !== undefined || (turn.partial !== undefined && !turn.partial.stopped);
  return (
    <div
      className="msg assistant"
      data-testid="msg-assistant"
      {...(streaming ? { 'data-streaming': 'true' } : {})}
    >
      {/* One keyed list: a call's card keeps its place in React (and its app view stays up) when the
          streamed call becomes the saved one under the same id. */}
      {[
        ...turn.steps.map((s) =>
          s.kind === 'tool' ? (
            <ChatToolCard
              key={stepKey(s)}
              conversationId={props.conversationId}
              call={s.call}
              step={s.step}
            />
          ) : s.kind === 'text' ? (
            <AnswerText key={stepKey(s)} conversationId={props.conversationId} saved={s.message} />
          ) : (
            <NoteView key={stepKey(s)} step={s} />
          ),
        ),
        // Under the key its saved message will have: the streamed blocks stay when it is saved.
        ...(turn.draftId !== undefined
          ? [
              <AnswerText
                key={`text:${turn.draftId}`}
                conversationId={props.conversationId}
                messageId={turn.draftId}
                grew={props.grew}
              />,
            ]
          : []),
        ...(turn.partial?.calls ?? []).map((c) => (
          <ChatToolCard
            key={`tool:${c.id}`}
            conversationId={props.conversationId}
            call={{ id: c.id, name: c.name, arguments: c.arguments }}
            step={undefined}
            partial={{
              target: c.target,
              ...(turn.partial?.stopped ? { stopped: turn.partial.stopped } : {}),
            }}
          />
        )),
      ]}
      <div className="msg-foot">
        {!streaming && <TurnActions text={text.join('\n\n')} last={props.last} handlers={props.actions} />}
        {turn.model && <p className="muted small msg-meta">{turn.model}</p>}
      </div>
    </div>
  );
});

const stepKey = (s: TurnStep) => (s.kind === 'tool' ? `tool:${s.call.id}` : `${s.kind}:${s.message.id}`);

/** The model's text: the saved message's, or the draft of the one streaming (read once a frame). */
function AnswerText(props: {
  conversationId: string;
  saved?: AssistantChatMessage;
  messageId?: string;
  grew?: () => void;
}) {
  const { saved, messageId, grew } = props;
  const live = useChat((s) => {
    const d = saved ? undefined : s.drafts[props.conversationId];
    return d?.messageId === messageId ? d?.text : undefined;
  });
  // The draft is dropped as its message is saved; until the saved text arrives here (Virtuoso passes the
  // new item a moment later), the text shown stays, so the blocks it streamed are kept.
  const shown = useRef('');
  const text = saved ? saved.text : (live ?? shown.current);
  shown.current = text;
  useEffect(() => {
    if (!saved) grew?.();
  }, [text, saved, grew]);
  return (
    <>
      {text && <Markdown text={text} testId="msg-markdown" streaming={!saved} />}
      {saved?.cancelled && <p className="muted small">(cancelled while answering)</p>}
    </>
  );
}

/** A note step (text steps are AnswerText, tool steps cards, keyed beside them). */
function NoteView({ step }: { step: Extract<TurnStep, { kind: 'note' }> }) {
  return (
    <p
      className={`msg-note ${step.message.level}`}
      data-testid="msg-note"
      role={step.message.level === 'warning' ? 'alert' : undefined}
    >
      {step.message.text}
    </p>
  );
}
