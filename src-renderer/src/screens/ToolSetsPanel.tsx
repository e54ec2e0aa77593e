// Tool selection per agent (issues 3 and 5): a named tool set picks tools across servers; a chat that uses
// it offers the model only those. Kept in settings.json.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';

export function ToolSetsPanel() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const sets = useQuery(trpc.toolSets.list.queryOptions());
  const tools = useQuery(trpc.tools.list.queryOptions({}));
  const [name, setName] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.toolSets.list.queryKey() });
  const save = useMutation(
    trpc.toolSets.save.mutationOptions({
      onSuccess: () => {
        setName('');
        setPicked([]);
        refresh();
      },
    }),
  );
  const remove = useMutation(trpc.toolSets.remove.mutationOptions({ onSuccess: refresh }));
  const enabled = (tools.data ?? []).filter((t) => t.enabled);
  return (
    <section aria-labelledby="toolsets-title" className="toolsets" data-testid="toolsets">
      <h2 id="toolsets-title">Agents (tool sets)</h2>
      <p className="muted">
        A tool set picks tools across servers, e.g. a "Code Reviewer" that may read files but not write them.
        Choose it in the chat, or run <code>mooring chat --tool-set NAME</code>.
      </p>
      <ul className="plain">
        {(sets.data ?? []).map((s) => (
          <li key={s.name} data-testid={`toolset-${s.name}`}>
            <strong>{s.name}</strong>: <span className="muted">{s.tools.join(', ')}</span>{' '}
            <button type="button" className="link" onClick={() => remove.mutate({ name: s.name })}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ name: name.trim(), tools: picked });
        }}
      >
        <label className="field">
          New tool set
          <input
            aria-label="Tool set name"
            value={name}
            placeholder="Code Reviewer"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <div className="tool-picks">
          {enabled.map((t) => (
            <label key={t.modelName} className="inline">
              <input
                type="checkbox"
                aria-label={`Include ${t.modelName}`}
                checked={picked.includes(t.modelName)}
                onChange={(e) =>
                  setPicked((p) =>
                    e.target.checked ? [...p, t.modelName] : p.filter((x) => x !== t.modelName),
                  )
                }
              />
              {t.friendlyName}
            </label>
          ))}
        </div>
        <button
          type="submit"
          className="primary"
          disabled={!name.trim() || picked.length === 0 || save.isPending}
        >
          Save tool set
        </button>
      </form>
      <ErrorNote error={save.error ?? remove.error} />
    </section>
  );
}
