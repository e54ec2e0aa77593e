// The conversation's messages in a virtualised list (issue 5: long conversations stay smooth): only what
// is on screen is rendered; the list follows the answer as it streams in unless the user scrolled up.
import { Virtuoso } from 'react-virtuoso';
import type { AssistantChatMessage, ChatMessage, ToolChatMessage } from '@shared/chat';
import { Gallery } from '../../components/Gallery';
import { ChatToolCard } from './ChatToolCard';
import { useChat } from './chatStore';

type Item =
  { kind: 'message'; message: Exclude<ChatMessage, ToolChatMessage> } | { kind: 'draft'; text: string };

export function MessageList({
  conversationId,
  messages,
}: {
  conversationId: string;
  messages: ChatMessage[];
}) {
  const draft = useChat((s) => s.drafts[conversationId]);
  const running = useChat((s) => s.running[conversationId] === true);
  const steps = new Map<string, ToolChatMessage>();
  for (const m of messages) if (m.role === 'tool') steps.set(m.toolCallId, m);
  const items: Item[] = messages.flatMap((m): Item[] =>
    m.role === 'tool' || (m.role === 'user' && m.origin === 'protocol')
      ? []
      : [{ kind: 'message', message: m }],
  );
  if (draft && !messages.some((m) => m.id === draft.messageId))
    items.push({ kind: 'draft', text: draft.text });
  return (
    <Virtuoso
      className="chat-messages"
      data={items}
      // While a turn runs, follow every new step even when a tall tool card pushed the view off the
      // bottom; otherwise follow only when the user is already at the bottom (they may be reading).
      followOutput={(atBottom) => (running || atBottom ? 'auto' : false)}
      initialTopMostItemIndex={Math.max(0, items.length - 1)}
      computeItemKey={(i, item) => (item.kind === 'draft' ? 'draft' : item.message.id) + i}
      itemContent={(_, item) => (
        <div className="chat-row">
          {item.kind === 'draft' ? (
            <div className="msg assistant" data-testid="msg-assistant" data-streaming="true">
              <div className="msg-text">{item.text}</div>
            </div>
          ) : (
            <MessageView conversationId={conversationId} message={item.message} steps={steps} />
          )}
        </div>
      )}
    />
  );
}

function MessageView(props: {
  conversationId: string;
  message: Exclude<ChatMessage, ToolChatMessage>;
  steps: Map<string, ToolChatMessage>;
}) {
  const m = props.message;
  if (m.role === 'note')
    return (
      <p
        className={`msg-note ${m.level}`}
        data-testid="msg-note"
        role={m.level === 'warning' ? 'alert' : undefined}
      >
        {m.text}
      </p>
    );
  if (m.role === 'user') {
    const text = m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    const images = m.content.flatMap((p) =>
      p.type === 'image' ? [{ base64: p.data, mimeType: p.mimeType, size: p.data.length }] : [],
    );
    return (
      <div className="msg user" data-testid="msg-user">
        <div className="msg-text">{text}</div>
        {images.length > 0 && <Gallery images={images} label="your message" />}
      </div>
    );
  }
  return <AssistantView conversationId={props.conversationId} message={m} steps={props.steps} />;
}

function AssistantView(props: {
  conversationId: string;
  message: AssistantChatMessage;
  steps: Map<string, ToolChatMessage>;
}) {
  const m = props.message;
  return (
    <div className="msg assistant" data-testid="msg-assistant">
      {m.text && <div className="msg-text">{m.text}</div>}
      {m.cancelled && <p className="muted small">(cancelled while answering)</p>}
      {m.toolCalls.map((c) => (
        <ChatToolCard
          key={c.id}
          conversationId={props.conversationId}
          call={c}
          step={props.steps.get(c.id)}
        />
      ))}
      {m.model && <p className="muted small msg-meta">{m.model}</p>}
    </div>
  );
}
