// A prompt picked from the composer's `/` list (MCP 2025-11-25 "Prompts"): a small form for its arguments,
// with the server's completions (the arguments already filled in are the context), whose messages
// (prompts/get) are inserted into the composer for the user to read and send.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SlashCommandView } from '@shared/wire';
import { useTRPC } from '../../api/trpc';
import { CompletionInput } from '../../components/CompletionInput';
import { ErrorNote } from '../../components/ErrorNote';

export function PromptForm(props: {
  prompt: SlashCommandView;
  onClose: () => void;
  onInsert: (text: string) => void;
}) {
  const { prompt } = props;
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [args, setArgs] = useState<Record<string, string>>({});
  // The server's suggestions for one argument; the arguments already filled in are its context.
  const complete = (argument: string) => async (value: string) =>
    (
      await qc.fetchQuery(
        trpc.chat.completePrompt.queryOptions({
          server: prompt.server,
          name: prompt.name,
          argument: { name: argument, value },
          context: Object.fromEntries(Object.entries(args).filter(([k, v]) => k !== argument && v)),
        }),
      )
    ).values;
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
          <CompletionInput
            label={a.name}
            value={args[a.name] ?? ''}
            onChange={(v) => setArgs({ ...args, [a.name]: v })}
            complete={complete(a.name)}
            required={a.required}
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
