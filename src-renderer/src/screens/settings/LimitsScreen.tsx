// Settings > Limits: every limit a message names ("raise the limit in Settings > Limits"), each with what it
// does, its value in settings.json, and the command that sets it from a terminal. A row saves on its own;
// the core checks the value against the settings schema and says what it takes when it is refused. Each
// local server's message size limit follows (MessageSizeLimits.tsx: mcp_servers.json, not settings.json).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LIMIT_SETTINGS, limitCommand, type LimitSetting } from '@shared/limitSettings';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { PageHeader } from '../../ui';
import { titleOf } from '../../shell/screens';
import { MessageSizeLimits } from './MessageSizeLimits';
import './settings.css';
import { SavedButton } from './SavedButton';

/** A dot path's value in the settings object, as the input shows it. */
function valueAt(settings: unknown, key: string): string {
  let at: unknown = settings;
  for (const part of key.split('.')) at = (at as Record<string, unknown> | undefined)?.[part];
  return at === undefined || at === null ? '' : String(at);
}

export function LimitsScreen() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.queryOptions());
  return (
    <section aria-labelledby="limits-title" className="settings">
      <PageHeader
        id="limits-title"
        title={titleOf('limits')}
        description="The limits Mooring's messages point to. Each is a line of settings.json; the command beside it sets it from a terminal."
      />
      {!settings.data ? (
        <ErrorNote error={settings.error} />
      ) : (
        <div className="panel limits">
          {LIMIT_SETTINGS.map((l) => (
            <LimitRow key={l.key} limit={l} saved={valueAt(settings.data, l.key)} />
          ))}
        </div>
      )}
      <MessageSizeLimits />
    </section>
  );
}

function LimitRow({ limit, saved }: { limit: LimitSetting; saved: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [value, setValue] = useState(saved);
  const save = useMutation(
    trpc.setLimit.mutationOptions({
      onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.settings.queryKey() }),
    }),
  );
  const id = `limit-${limit.key.replace('.', '-')}`;
  const text = value.trim();
  const changed = text !== saved;
  const submit = () => {
    const parsed = text === '' ? null : limit.kind === 'url' ? text : Number(text);
    save.mutate({ key: limit.key, value: parsed });
  };
  return (
    <form
      className="limit-row"
      data-testid={id}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={id}>{limit.label}</label>
      <div className="inline">
        <input
          id={id}
          inputMode={limit.kind === 'url' ? 'url' : limit.kind === 'integer' ? 'numeric' : 'decimal'}
          value={value}
          placeholder={limit.optional ? 'not set' : undefined}
          aria-describedby={`${id}-help`}
          onChange={(e) => {
            setValue(e.target.value);
            save.reset();
          }}
        />
        <SavedButton disabled={!changed || save.isPending} saved={save.isSuccess && !changed} />
      </div>
      <p className="muted small" id={`${id}-help`}>
        {limit.help}
      </p>
      <code className="limit-command small">{limitCommand(limit.key, text)}</code>
      <ErrorNote error={save.error} testId={`${id}-error`} />
    </form>
  );
}
