// The Tools playground: pick a tool, edit its JSON arguments, run it through the same path as the chat's
// calls (approval included), and watch the call card walk through its lifecycle on the one tool-call
// stream (ARCHITECTURE.md, "One lifecycle, one stream"); every call this window heard of is listed.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC } from '../api/trpc';
import { AnnotationBadges } from '../components/AnnotationBadges';
import { ErrorNote } from '../components/ErrorNote';
import { ToolCallCard, viewOfEvent } from '../components/ToolCallCard';
import { checkArgs } from '../lib/argsValidation';
import { useCalls } from '../stores/callStore';
import { useUi } from '../stores/uiStore';

export function PlaygroundScreen() {
  const trpc = useTRPC();
  const ui = useUi();
  const tools = useQuery(trpc.tools.list.queryOptions({}));
  const enabled = useMemo(() => (tools.data ?? []).filter((t) => t.enabled), [tools.data]);
  const [name, setName] = useState('');
  const [args, setArgs] = useState('{}');
  const [argError, setArgError] = useState<string | null>(null);
  const order = useCalls((s) => s.order);
  const calls = useCalls((s) => s.calls);
  const call = useMutation(trpc.tools.run.mutationOptions());
  const tool = enabled.find((t) => t.modelName === name);

  const run = () => {
    if (!tool) return;
    const checked = checkArgs(args, tool.inputSchema);
    if (!checked.ok) {
      setArgError(checked.error);
      return;
    }
    setArgError(null);
    call.mutate({ name: tool.modelName, arguments: checked.value });
  };

  return (
    <section aria-labelledby="play-title">
      <header className="screen-head">
        <div>
          <p className="crumbs">Tools</p>
          <h1 id="play-title">Playground</h1>
        </div>
      </header>
      {tools.isSuccess && enabled.length === 0 ? (
        <div className="empty">
          <h2>No tools to try yet</h2>
          <p>Connect a server first; its enabled tools appear here.</p>
          <button type="button" className="primary" onClick={() => ui.navigate('servers')}>
            Add a server
          </button>
        </div>
      ) : (
        <div className="playground">
          <label className="stack">
            Tool
            <select aria-label="Tool" value={name} onChange={(e) => setName(e.target.value)}>
              <option value="">Choose a tool…</option>
              {enabled.map((t) => (
                <option key={t.modelName} value={t.modelName}>
                  {t.server} / {t.tool}
                </option>
              ))}
            </select>
          </label>
          {tool && (
            <p className="muted">
              {tool.description} <AnnotationBadges flags={tool} />
            </p>
          )}
          <label className="stack">
            Arguments (JSON)
            <textarea
              aria-label="Arguments"
              className="code"
              rows={6}
              value={args}
              onChange={(e) => setArgs(e.target.value)}
              spellCheck={false}
            />
          </label>
          {argError && (
            <p className="danger-text" role="alert">
              {argError}
            </p>
          )}
          <div className="actions">
            <button type="button" className="primary" disabled={!tool} onClick={run}>
              Run
            </button>
          </div>
          <ErrorNote error={call.error} testId="call-error" />
        </div>
      )}
      <div className="cards" aria-label="Tool calls">
        {order.map((key) => (
          <ToolCallCard key={key} view={viewOfEvent(calls[key]!)} />
        ))}
      </div>
    </section>
  );
}
