// The Playground: pick a tool, edit its JSON arguments, run it through the same path as the chat's calls
// (approval included), and watch the call card walk through its lifecycle on the one tool-call stream
// (docs/tool-calls.md, "One lifecycle, one stream"); every call this window heard of is listed.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Play, TestTubeDiagonal } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTRPC } from '../api/trpc';
import { AnnotationBadges } from '../components/AnnotationBadges';
import { ErrorNote } from '../components/ErrorNote';
import { appOfClient } from '@shared/appViews';
import { PlaygroundAppView } from '../components/apps/AppView';
import { ToolCallCard, viewOfEvent } from '../components/ToolCallCard';
import { argsTemplate, checkArgs } from '@shared/toolArguments';
import { useCalls } from '../stores/callStore';
import { useUi } from '../stores/uiStore';
import { Button, Card, EmptyState, Field, PageHeader } from '../ui';
import { CliHint } from './CliHint';
import { titleOf } from '../shell/screens';

export function PlaygroundScreen() {
  const trpc = useTRPC();
  const ui = useUi();
  const tools = useQuery(trpc.tools.list.queryOptions({}));
  // Every tool, the ones off for models too: off hides a tool from models, and a call made here is the
  // person's own, which the gate asks about (ARCHITECTURE.md, "The path of one tool call").
  const callable = useMemo(
    () =>
      [...(tools.data ?? [])].sort(
        (a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool),
      ),
    [tools.data],
  );
  const [name, setName] = useState('');
  const [args, setArgs] = useState('{}');
  const [argError, setArgError] = useState<string | null>(null);
  const order = useCalls((s) => s.order);
  const calls = useCalls((s) => s.calls);
  // Answers once the call has begun; its card follows the stream, so a call waiting for approval holds no
  // request (api/toolsRouter.ts, `start`).
  const call = useMutation(trpc.tools.start.mutationOptions());
  const cancelTask = useMutation(trpc.tools.cancelTask.mutationOptions());
  const tool = callable.find((t) => t.modelName === name);

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
      <PageHeader
        id="play-title"
        title={titleOf('playground')}
        description="Call any tool by hand, through the same approvals as the chat; a tool that is off for models asks first."
      />
      {tools.isSuccess && callable.length === 0 ? (
        <EmptyState
          icon={<TestTubeDiagonal size={24} />}
          title="No tools to try yet"
          cli={`mooring mcp call SERVER TOOL '{"arg": "value"}'`}
          actions={
            <Button variant="primary" onClick={() => ui.navigate('servers')}>
              Add a server
            </Button>
          }
        >
          <p>Connect a server first; its tools appear here.</p>
        </EmptyState>
      ) : (
        <Card>
          <div className="playground">
            <Field label="Tool">
              <select
                aria-label="Tool"
                value={name}
                onChange={(e) => {
                  // Start from what the tool needs: its required arguments, to fill in.
                  const next = callable.find((t) => t.modelName === e.target.value);
                  setName(e.target.value);
                  setArgs(argsTemplate(next?.inputSchema));
                  setArgError(null);
                }}
              >
                <option value="">Choose a tool…</option>
                {callable.map((t) => (
                  <option key={t.modelName} value={t.modelName}>
                    {t.server} / {t.tool}
                    {t.enabled ? '' : ' (off for models)'}
                  </option>
                ))}
              </select>
            </Field>
            {tool && (
              <p className="muted">
                {tool.description} <AnnotationBadges flags={tool} />
              </p>
            )}
            <Field label="Arguments (JSON)" error={argError}>
              <textarea
                aria-label="Arguments"
                className="code"
                rows={6}
                value={args}
                onChange={(e) => setArgs(e.target.value)}
                spellCheck={false}
              />
            </Field>
            <div>
              <Button variant="primary" icon={<Play size={14} />} disabled={!tool} onClick={run}>
                Run
              </Button>
            </div>
            <ErrorNote error={call.error} testId="call-error" />
          </div>
        </Card>
      )}
      {/* A named region: aria-label on a plain div names nothing (axe: aria-prohibited-attr). */}
      {/* A view's own calls (a view that polls makes one every few seconds) belong to its view, not a card
          each; they are in the approval dialog while they ask, and in Logs. */}
      <section className="cards" aria-label="Tool calls">
        {order
          .filter((key) => !appOfClient(calls[key]?.client))
          .map((key) => (
            <div key={key}>
              <ToolCallCard
                view={viewOfEvent(calls[key]!)}
                onCancelTask={() => cancelTask.mutate({ id: calls[key]!.id })}
              />
              <PlaygroundAppView event={calls[key]!} />
            </div>
          ))}
      </section>
      <CliHint commands={[`mooring mcp call SERVER TOOL '{…}'`]} />
    </section>
  );
}
