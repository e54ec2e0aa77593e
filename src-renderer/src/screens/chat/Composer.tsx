// The composer (spec 2025-11-25 "Prompts": user-controlled): Enter sends, Shift+Enter is a new line; typing
// `/` lists every server's prompts as slash commands, choosing one opens a small form for its arguments, and
// its messages (prompts/get) are inserted into the composer for the user to read and send.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import type { SlashCommandView } from '@shared/wire';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { McpIcon } from '../../components/McpIcon';

export function Composer(props: {
  running: boolean;
  sending: boolean;
  onSend: (text: string) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [prompt, setPrompt] = useState<SlashCommandView | null>(null);
  const slash = /^\/(\S*)$/.exec(text);
  const prompts = useQuery({ ...trpc.chat.prompts.queryOptions(), enabled: !!slash });
  const matches = slash
    ? (prompts.data ?? []).filter((p) => p.command.toLowerCase().startsWith(slash[1]!.toLowerCase()))
    : [];

  const send = () => {
    if (!text.trim() || props.running || props.sending) return;
    props.onSend(text);
    setText('');
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (matches.length) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        setPrompt(matches[Math.min(active, matches.length - 1)]!);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send();
    }
  };

  return (
    <div className="composer">
      {slash && (
        <ul className="slash-list" role="listbox" aria-label="Prompts" data-testid="slash-list">
          {prompts.isLoading && <li className="muted">Loading prompts…</li>}
          {!prompts.isLoading && matches.length === 0 && (
            <li className="muted">No server offers a prompt named like that.</li>
          )}
          {matches.map((p, i) => (
            <li key={`${p.server}/${p.name}`}>
              <button
                type="button"
                role="option"
                aria-selected={i === active}
                className={i === active ? 'active' : ''}
                onClick={() => setPrompt(p)}
              >
                <McpIcon src={p.icon} />
                <strong>/{p.command}</strong> <span className="muted">{p.server}</span>
                {p.description && <span className="muted small"> — {p.description}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {prompt && (
        <PromptForm
          prompt={prompt}
          onClose={() => setPrompt(null)}
          onInsert={(inserted) => {
            setText(inserted);
            setPrompt(null);
          }}
        />
      )}
      <div className="composer-row">
        <textarea
          aria-label="Message"
          placeholder="Ask something. Type / for the servers' prompts."
          rows={3}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKey}
        />
        {props.running ? (
          <button type="button" className="danger" onClick={props.onCancel}>
            Stop
          </button>
        ) : (
          <button type="button" className="primary" onClick={send} disabled={!text.trim() || props.sending}>
            Send
          </button>
        )}
      </div>
    </div>
  );
}

function PromptForm(props: {
  prompt: SlashCommandView;
  onClose: () => void;
  onInsert: (text: string) => void;
}) {
  const { prompt } = props;
  const trpc = useTRPC();
  const [args, setArgs] = useState<Record<string, string>>({});
  const get = useMutation(
    trpc.chat.getPrompt.mutationOptions({
      onSuccess: (r) => props.onInsert(r.messages.map((m) => m.text).join('\n\n')),
    }),
  );
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim());
  return (
    <form
      className="prompt-form"
      data-testid="prompt-form"
      aria-label={`Prompt ${prompt.command}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (missing.length) return;
        get.mutate({ server: prompt.server, name: prompt.name, arguments: args });
      }}
    >
      <p>
        <strong>/{prompt.command}</strong> <span className="muted">from {prompt.server}</span>
        {prompt.description && <span className="muted small"> — {prompt.description}</span>}
      </p>
      {prompt.arguments.length === 0 && <p className="muted small">This prompt takes no arguments.</p>}
      {prompt.arguments.map((a) => (
        <label key={a.name} className="stack">
          <span>
            {a.name}
            {a.required ? ' (required)' : ''}
            {a.description && <span className="muted small"> — {a.description}</span>}
          </span>
          <input
            value={args[a.name] ?? ''}
            onChange={(e) => setArgs({ ...args, [a.name]: e.target.value })}
            aria-required={a.required}
          />
        </label>
      ))}
      <ErrorNote error={get.error} />
      <div className="actions">
        <button type="button" onClick={props.onClose}>
          Close
        </button>
        <span className="spacer" />
        <button type="submit" className="primary" disabled={missing.length > 0 || get.isPending}>
          Insert prompt
        </button>
      </div>
    </form>
  );
}
