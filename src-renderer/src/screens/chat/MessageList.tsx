// The conversation in a virtualised list (long conversations stay smooth: only what is on screen is
// rendered): each of the person's messages, then one answer per turn with the model's text and its tool
// steps in the order they happened (shared/chatTurns.ts) and the model named once, at its foot. The
// list follows the answer as it streams in unless the user scrolled up.
import { useState } from 'react';
import { Virtuoso } from 'react-virtuoso';
import { attachedResources, typedText, type ChatMessage, type UserChatMessage } from '@shared/chat';
import { groupTurns, type AssistantTurn, type ConversationItem, type TurnStep } from '@shared/chatTurns';
import { AppMessageLabel } from '../../components/apps/AppMessageLabel';
import { Gallery } from '../../components/Gallery';
import { Markdown } from '../../components/Markdown';
import { ChatToolCard } from './ChatToolCard';
import { useChat, type PartialCalls } from './chatStore';
import { ResourceChips } from './ResourceAttach';
import { EditMessage, TurnActions, UserActions, type MessageActionHandlers } from './MessageActions';

/** A turn as shown: its saved steps, then the text still streaming and the calls still being written. */
type ShownTurn = AssistantTurn & { draft?: string; partial?: PartialCalls };
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
  const draft = useChat((s) => s.drafts[conversationId]);
  const partial = useChat((s) => s.partials[conversationId]);
  const running = useChat((s) => s.running[conversationId] === true);
  const items: ShownItem[] = groupTurns(messages);
  const streaming = (id: string | undefined) => id !== undefined && !messages.some((m) => m.id === id);
  const live: Pick<ShownTurn, 'draft' | 'partial'> = {
    ...(draft && streaming(draft.messageId) ? { draft: draft.text } : {}),
    // The store drops them once the saved message carries them; a stopped answer's stay with its text.
    ...(partial ? { partial } : {}),
  };
  if (live.draft !== undefined || live.partial) {
    // The streaming answer belongs to the running turn: the last answer, or a new one after the question.
    const last = items.at(-1);
    if (last?.kind === 'turn') items[items.length - 1] = { ...last, ...live };
    else items.push({ kind: 'turn', id: (draft ?? partial)!.messageId, steps: [], ...live });
  }
  return (
    <Virtuoso
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
            />
          )}
        </div>
      )}
    />
  );
}

function UserView({ message: m, actions }: { message: UserChatMessage; actions?: MessageActionHandlers }) {
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
}

function TurnView(props: {
  conversationId: string;
  turn: ShownTurn;
  last: boolean;
  actions?: MessageActionHandlers;
}) {
  const { turn } = props;
  const text = turn.steps.flatMap((s) => (s.kind === 'text' && s.message.text ? [s.message.text] : []));
  const streaming = turn.draft !== undefined || (turn.partial !== undefined && !turn.partial.stopped);
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
          ) : (
            <StepView key={stepKey(s)} step={s} />
          ),
        ),
        ...(turn.draft !== undefined
          ? [<Markdown key="draft" text={turn.draft} testId="msg-markdown" />]
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
}

const stepKey = (s: TurnStep) => (s.kind === 'tool' ? `tool:${s.call.id}` : `${s.kind}:${s.message.id}`);

/** A text or note step (tool steps are cards of their own, keyed beside them). */
function StepView({ step }: { step: Exclude<TurnStep, { kind: 'tool' }> }) {
  switch (step.kind) {
    case 'text':
      return (
        <>
          {step.message.text && <Markdown text={step.message.text} testId="msg-markdown" />}
          {step.message.cancelled && <p className="muted small">(cancelled while answering)</p>}
        </>
      );
    case 'note':
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
}
