// Add / Edit a server (issue 5): a form and a raw JSON view of the same entry, Test (handshake, tools
// and latency, or the error with its hint), Save. Errors from the core show with their hint.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ServerConfig } from '@shared/config';
import { useTRPC } from '../api/trpc';
import { useUi } from '../stores/uiStore';
import { ErrorNote } from '../components/ErrorNote';
import { Modal } from '../components/Modal';
import { draftFrom, emptyDraft, inputFrom, type ServerDraft } from '../lib/serverDraft';
import { KeyValueEditor } from './KeyValueEditor';

export function ServerForm(props: { existing?: ServerConfig; onClose: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<ServerDraft>(() =>
    props.existing ? draftFrom(props.existing) : emptyDraft(),
  );
  const [view, setView] = useState<'form' | 'json'>('form');
  const [jsonText, setJsonText] = useState('');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const test = useMutation(trpc.servers.test.mutationOptions());
  const onSaved = () => {
    void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
    props.onClose();
  };
  const notify = useUi((u) => u.notify);
  const add = useMutation(
    trpc.servers.add.mutationOptions({
      onSuccess: (saved) => {
        if (saved.safeDefaults.message)
          notify(
            `${saved.name}: ${saved.safeDefaults.message}. Turn them on in Tool selection if you want the model to use them.`,
          );
        onSaved();
      },
    }),
  );
  const update = useMutation(trpc.servers.update.mutationOptions({ onSuccess: onSaved }));
  const save = props.existing ? update : add;
  const set = (patch: Partial<ServerDraft>) => setDraft((d) => ({ ...d, ...patch }));

  /** The entry as it stands in whichever view is showing; null when the JSON does not parse. */
  const currentInput = () => {
    if (view === 'form') return inputFrom(draft);
    try {
      return JSON.parse(jsonText);
    } catch (err) {
      setJsonError(`Not valid JSON: ${(err as Error).message}`);
      return null;
    }
  };
  const switchView = (next: 'form' | 'json') => {
    if (next === view) return;
    if (next === 'json') {
      setJsonText(JSON.stringify(inputFrom(draft), null, 2));
      setJsonError(null);
    } else {
      const parsed = currentInput();
      if (parsed === null) return;
      setDraft(draftFrom(parsed));
    }
    setView(next);
  };
  const onSave = () => {
    const input = currentInput();
    if (input === null) return;
    if (props.existing) update.mutate({ name: props.existing.name, config: input });
    else add.mutate(input);
  };

  return (
    <Modal
      open
      onOpenChange={(o) => !o && props.onClose()}
      title={props.existing ? `Edit ${props.existing.name}` : 'Add a server'}
      wide
      testId="server-form"
    >
      <div className="tabs" role="tablist">
        <button role="tab" type="button" aria-selected={view === 'form'} onClick={() => switchView('form')}>
          Form
        </button>
        <button role="tab" type="button" aria-selected={view === 'json'} onClick={() => switchView('json')}>
          JSON
        </button>
      </div>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
      >
        {view === 'json' ? (
          <label className="stack">
            The entry as it is written to mcp_servers.json
            <textarea
              aria-label="Server JSON"
              className="code"
              rows={16}
              value={jsonText}
              onChange={(e) => setJsonText(e.target.value)}
              spellCheck={false}
            />
            {jsonError && <span className="danger-text">{jsonError}</span>}
          </label>
        ) : (
          <div className="grid-form">
            <label>
              Name
              <input
                value={draft.name}
                onChange={(e) => set({ name: e.target.value })}
                placeholder="my-server"
                required
              />
            </label>
            <label>
              Transport
              <select
                value={draft.transport}
                onChange={(e) => set({ transport: e.target.value as ServerDraft['transport'] })}
              >
                <option value="stdio">stdio (a local command)</option>
                <option value="http">Streamable HTTP</option>
                <option value="sse">SSE (legacy)</option>
              </select>
            </label>
            {draft.transport === 'stdio' ? (
              <>
                <label>
                  Command
                  <input
                    value={draft.command}
                    onChange={(e) => set({ command: e.target.value })}
                    placeholder="npx"
                  />
                </label>
                <label>
                  Arguments (one per line)
                  <textarea
                    className="code"
                    rows={3}
                    value={draft.args}
                    onChange={(e) => set({ args: e.target.value })}
                    placeholder={'-y\n@modelcontextprotocol/server-everything'}
                  />
                </label>
                <KeyValueEditor
                  label="Environment"
                  keyHint="NAME"
                  rows={draft.env}
                  onChange={(env) => set({ env })}
                />
              </>
            ) : (
              <>
                <label>
                  URL
                  <input
                    value={draft.url}
                    onChange={(e) => set({ url: e.target.value })}
                    placeholder="https://example.com/mcp"
                  />
                </label>
                <KeyValueEditor
                  label="Headers"
                  keyHint="Header-Name"
                  rows={draft.headers}
                  onChange={(headers) => set({ headers })}
                />
              </>
            )}
            <label>
              Timeout (seconds)
              <input
                inputMode="numeric"
                value={draft.timeoutSeconds}
                onChange={(e) => set({ timeoutSeconds: e.target.value })}
                placeholder="180"
              />
            </label>
          </div>
        )}
        <ErrorNote error={save.error} testId="save-error" />
        {test.data && (
          <div
            className={`test-result ${test.data.ok ? 'ok' : 'bad'}`}
            data-testid="test-result"
            role="status"
          >
            {test.data.ok ? (
              <>
                <strong>
                  Connected in {test.data.latency_ms} ms
                  {test.data.server ? ` to ${test.data.server.name} ${test.data.server.version}` : ''}:{' '}
                  {test.data.tool_count} tools
                </strong>
                <p className="muted">{test.data.tools.join(', ')}</p>
              </>
            ) : (
              <>
                <strong>{test.data.error}</strong>
                {test.data.hint && <p className="hint">{test.data.hint}</p>}
              </>
            )}
          </div>
        )}
        <ErrorNote error={test.error} testId="test-error" />
        <div className="actions">
          <button
            type="button"
            onClick={() => {
              const input = currentInput();
              if (input !== null) test.mutate(input);
            }}
            disabled={test.isPending}
          >
            {test.isPending ? 'Testing…' : 'Test'}
          </button>
          <span className="spacer" />
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
