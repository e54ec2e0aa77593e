// Placeholder: the chat UI lands with the agent (issue 6). Until then the Tools playground runs calls.
import { useUi } from '../stores/uiStore';

export function ChatScreen() {
  const navigate = useUi((s) => s.navigate);
  return (
    <section aria-labelledby="chat-title">
      <header className="screen-head">
        <h1 id="chat-title">Chat</h1>
      </header>
      <div className="empty" data-testid="chat-placeholder">
        <h2>The chat is coming in a later version</h2>
        <p>
          Conversations with a model will live here. To set a model, you will pick a provider (Ollama, OpenAI
          or Anthropic) in Settings. For now, try your servers' tools in the playground.
        </p>
        <button type="button" className="primary" onClick={() => navigate('playground')}>
          Open the Tools playground
        </button>
      </div>
    </section>
  );
}
