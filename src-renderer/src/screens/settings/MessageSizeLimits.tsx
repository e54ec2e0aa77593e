// Settings > Limits, per server: the largest message Mooring takes from each local server in one line
// (its `maxMessageMB` in mcp_servers.json, shared/config.ts), with the command that sets it from a
// terminal. A row saves the server's entry through the same checks as its form.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_MAX_MESSAGE_MB, MAX_MESSAGE_MB } from '@shared/config';
import { isLocalTransport } from '@shared/transports';
import type { ServerRow } from '@shared/wire';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { SavedButton } from './SavedButton';

export function MessageSizeLimits() {
  const trpc = useTRPC();
  const servers = useQuery(trpc.servers.list.queryOptions());
  const local = (servers.data ?? []).filter((r) => isLocalTransport(r.config.transport));
  return (
    <div className="panel limits" data-testid="message-size-limits">
      <h2 className="limits-heading">Largest message, per server</h2>
      <p className="muted small">
        The most a local server may send in one message, in MB (default {DEFAULT_MAX_MESSAGE_MB}, at most{' '}
        {MAX_MESSAGE_MB}). A larger one is dropped and the call it answered fails, naming this limit: raise it
        for a server that returns big images or pages.
      </p>
      {local.length === 0 && <p className="muted small">No local servers yet.</p>}
      {local.map((r) => (
        <MessageSizeRow key={r.config.name} row={r} />
      ))}
      <ErrorNote error={servers.error} />
    </div>
  );
}

function MessageSizeRow({ row }: { row: ServerRow }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const name = row.config.name;
  const saved = String(row.config.maxMessageMB);
  const [value, setValue] = useState(saved);
  const save = useMutation(
    trpc.servers.update.mutationOptions({
      onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() }),
    }),
  );
  const id = `limit-message-${name}`;
  const text = value.trim();
  const changed = text !== saved;
  return (
    <form
      className="limit-row"
      data-testid={id}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ name, config: { ...row.config, maxMessageMB: Number(text) } });
      }}
    >
      <label htmlFor={id}>{name} (MB)</label>
      <div className="inline">
        <input
          id={id}
          inputMode="decimal"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            save.reset();
          }}
        />
        <SavedButton disabled={!changed || !text || save.isPending} saved={save.isSuccess && !changed} />
      </div>
      <code className="limit-command small">
        mooring mcp set {name} maxMessageMB {text || saved}
      </code>
      <ErrorNote error={save.error} testId={`${id}-error`} />
    </form>
  );
}
