// A server asks for a model completion (spec 2025-11-25 "Sampling"): the user sees the request's
// messages, system prompt and max tokens, may edit them, and approves or declines. Nothing reaches a
// model without this approval; the server's hourly token budget is shown.
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import type { SamplingContentView, SamplingInteraction } from '@shared/interactions';
import { ErrorNote } from '../ErrorNote';
import type { Answer } from './answer';

const blocks = (c: SamplingContentView | SamplingContentView[]) => (Array.isArray(c) ? c : [c]);
const textOf = (c: SamplingContentView | SamplingContentView[]) =>
  blocks(c)
    .map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type}${b.mimeType ? ` ${b.mimeType}` : ''}]`))
    .join('\n');
const editable = (c: SamplingContentView | SamplingContentView[]) =>
  blocks(c).every((b) => b.type === 'text');

export function SamplingBody(props: {
  request: SamplingInteraction;
  send: Answer;
  busy: boolean;
  error: unknown;
}) {
  const { request: r } = props;
  const original = r.request;
  const [texts, setTexts] = useState(original.messages.map((m) => textOf(m.content)));
  const [system, setSystem] = useState(original.systemPrompt ?? '');
  const [maxTokens, setMaxTokens] = useState(String(original.maxTokens));
  const max = Number(maxTokens);
  const maxOk = Number.isInteger(max) && max > 0;
  const approve = () => {
    if (!maxOk) return;
    const messagesEdited = texts.some((t, i) => t !== textOf(original.messages[i]!.content));
    props.send({
      kind: 'sampling',
      outcome: 'approve',
      edited: {
        ...(messagesEdited
          ? {
              messages: original.messages.map((m, i) =>
                editable(m.content) ? { role: m.role, content: { type: 'text', text: texts[i]! } } : m,
              ),
            }
          : {}),
        ...(system !== (original.systemPrompt ?? '') ? { systemPrompt: system } : {}),
        ...(max !== original.maxTokens ? { maxTokens: max } : {}),
      },
    });
  };
  const { usedTokens, limitTokens } = r.budget;
  return (
    <>
      <Dialog.Title className="modal-title">“{r.server}” asks your model for an answer</Dialog.Title>
      <p className="muted">
        The server wants a completion from your model. Read what it sends; you may edit it. It has used{' '}
        {usedTokens.toLocaleString()} of {limitTokens.toLocaleString()} tokens this hour.
      </p>
      {original.messages.map((m, i) => (
        <label key={i} className="stack">
          {m.role === 'user' ? 'Message (user)' : 'Message (assistant)'}
          <textarea
            aria-label={`Sampling message ${i + 1}`}
            rows={Math.min(8, Math.max(2, texts[i]!.split('\n').length))}
            value={texts[i]}
            readOnly={!editable(m.content)}
            onChange={(e) => setTexts(texts.map((t, j) => (j === i ? e.target.value : t)))}
          />
        </label>
      ))}
      {original.tools?.length ? (
        <div className="stack" data-testid="sampling-tools">
          <span>
            {original.toolChoice === 'required' ? 'The model must call' : 'The model may call'} these tools; “
            {r.server}” runs them, not Mooring:
          </span>
          <ul>
            {original.tools.map((t) => (
              <li key={t.name}>
                <code>{t.name}</code>
                {t.description ? ` — ${t.description}` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <label className="stack">
        System prompt
        <textarea
          aria-label="System prompt"
          rows={2}
          value={system}
          placeholder="(none)"
          onChange={(e) => setSystem(e.target.value)}
        />
      </label>
      <label className="stack narrow">
        Max tokens
        <input
          aria-label="Max tokens"
          inputMode="numeric"
          value={maxTokens}
          onChange={(e) => setMaxTokens(e.target.value)}
          aria-invalid={!maxOk}
        />
      </label>
      {!maxOk && (
        <p className="danger-text" role="alert">
          Max tokens must be a whole number of at least 1.
        </p>
      )}
      <ErrorNote error={props.error} />
      <div className="actions">
        <button
          type="button"
          className="danger"
          disabled={props.busy}
          onClick={() => props.send({ kind: 'sampling', outcome: 'decline' })}
        >
          Decline
        </button>
        <span className="spacer" />
        <button type="button" className="primary" disabled={props.busy || !maxOk} onClick={approve}>
          Approve
        </button>
      </div>
    </>
  );
}
