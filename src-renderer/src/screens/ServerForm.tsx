// Add / Edit a server: a form and a raw JSON view of the same entry, Test (handshake, tools and latency,
// or the error with its hint), Save. The JSON view also takes a whole client config — the
// `{"mcpServers": {…}}` snippet of a README, VS Code's `servers`, Zed's `context_servers` — and hands it to
// the import consent, so every server in it is shown with its command line before it is added.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { describeCommandLine } from '@shared/commandLine';
import {
  DEFAULT_TIMEOUT_SECONDS,
  type ServerConfig,
  type ServerConfigInput,
  type ServerPolicy,
} from '@shared/config';
import { useTRPC } from '../api/trpc';
import { useUi } from '../stores/uiStore';
import { ErrorNote } from '../components/ErrorNote';
import { clientConfigKind, draftFrom, emptyDraft, inputFrom, type ServerDraft } from '../lib/serverDraft';
import { Button, Callout, CodeBlock, Dialog, Field, Switch, TabPanel, Tabs } from '../ui';
import { ConfinementFields } from './ConfinementFields';
import { KeyValueEditor } from './KeyValueEditor';
import { AdvancedFields } from './ServerFormAdvanced';
import { TestResult } from './TestResult';
import { toastWhenSettled } from './serverAddedToast';
import { isLocalTransport } from '@shared/transports';

const POLICIES: { value: ServerPolicy; label: string }[] = [
  { value: 'default', label: 'Ask before tools that may change things (recommended)' },
  { value: 'always-ask', label: 'Ask before every tool call' },
  { value: 'auto-read-only', label: 'Run read-only tools, ask for the rest' },
  { value: 'trust-all', label: 'Never ask (trust every tool of this server)' },
];

export function ServerForm(props: { existing?: ServerConfig; onClose: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const ui = useUi();
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
  const add = useMutation(
    trpc.servers.add.mutationOptions({
      onSuccess: (saved) => {
        if (saved.safeDefaults.disabledCount > 0) ui.notify({ servers: [saved.name] });
        else if (saved.safeDefaults.pending)
          toastWhenSettled({
            qc,
            listKey: trpc.servers.list.queryKey(),
            name: saved.name,
            showLogs: ui.showLogs,
          });
        onSaved();
      },
    }),
  );
  const update = useMutation(trpc.servers.update.mutationOptions({ onSuccess: onSaved }));
  const save = props.existing ? update : add;
  const set = (patch: Partial<ServerDraft>) => setDraft((d) => ({ ...d, ...patch }));

  /** The JSON view's text parsed, or null (with the error shown) when it does not parse. */
  const parsedJson = (): unknown => {
    try {
      return JSON.parse(jsonText);
    } catch (err) {
      setJsonError(`Not valid JSON: ${(err as Error).message}`);
      return null;
    }
  };
  /** The entry as it stands in whichever view is showing; null when the JSON does not parse. */
  const currentInput = (): ServerConfigInput | null =>
    view === 'form' ? inputFrom(draft) : (parsedJson() as ServerConfigInput | null);
  const switchView = (next: string) => {
    if (next === view) return;
    if (next === 'json') {
      setJsonText(JSON.stringify(inputFrom(draft), null, 2));
      setJsonError(null);
    } else {
      const parsed = parsedJson();
      if (parsed === null) return;
      if (clientConfigKind(parsed)) {
        setJsonError(
          'This is a whole client config, not one server: Review servers shows every server in it.',
        );
        return;
      }
      setDraft(draftFrom(parsed as never));
    }
    setView(next as 'form' | 'json');
  };
  const pastedConfig = view === 'json' && !props.existing ? clientConfigKindOf(jsonText) : null;
  const onSave = () => {
    const input = currentInput();
    if (input === null) return;
    if (!props.existing && clientConfigKind(input)) {
      // A whole client config: every server in it goes through the import consent.
      props.onClose();
      ui.openImport(true, { text: jsonText, fileName: 'pasted JSON' });
      return;
    }
    // The same error from Test and from Save would otherwise show twice, one under the other.
    test.reset();
    if (props.existing) update.mutate({ name: props.existing.name, config: input });
    else add.mutate(input);
  };
  const commandLine = describeCommandLine(inputFrom(draft));
  // What Test or Save answered is at the end of the body, below the fold in a 800-pixel window: bring it
  // into view, or pressing Test looks like it did nothing.
  const outcome = useRef<HTMLDivElement>(null);
  const answered = test.data ?? test.error ?? save.error;
  useEffect(() => {
    if (answered) outcome.current?.scrollIntoView?.({ block: 'nearest' });
  }, [answered]);

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && props.onClose()}
      title={props.existing ? `Edit ${props.existing.name}` : 'Add a server'}
      description={
        props.existing
          ? 'Saving restarts its session when anything but its tool filters, policy, log level or sampling budget changed.'
          : 'A local command (stdio) or a URL. Test checks the handshake before anything is saved.'
      }
      size="lg"
      testId="server-form"
      footer={
        <>
          <Button
            onClick={() => {
              const input = currentInput();
              if (input === null || clientConfigKind(input)) return;
              // One answer at a time: a Save error from before would sit above this Test's outcome.
              save.reset();
              test.mutate(input);
            }}
            loading={test.isPending}
            disabled={!!pastedConfig}
          >
            {test.isPending ? 'Testing…' : 'Test'}
          </Button>
          <span className="spacer" />
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" form="server-form-el" variant="primary" loading={save.isPending}>
            {pastedConfig ? 'Review servers…' : save.isPending ? 'Saving…' : 'Save'}
          </Button>
        </>
      }
    >
      <form
        id="server-form-el"
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
      >
        <Tabs
          label="Edit as"
          value={view}
          onValueChange={switchView}
          items={[
            { value: 'form', label: 'Form' },
            { value: 'json', label: 'JSON' },
          ]}
        >
          <TabPanel value="form">
            <FormFields draft={draft} set={set} commandLine={commandLine} />
          </TabPanel>
          <TabPanel value="json">
            <div className="stack-sm">
              <Field
                label={
                  props.existing
                    ? 'The entry as it is written to mcp_servers.json'
                    : 'One server entry, or a whole config'
                }
                hint={
                  props.existing
                    ? undefined
                    : 'Paste the "mcpServers" snippet from a server\'s README, a VS Code "servers" or Zed "context_servers" block: every server in it is shown for your consent before it is added.'
                }
                error={jsonError}
              >
                <textarea
                  aria-label="Server JSON"
                  className="code"
                  rows={14}
                  value={jsonText}
                  onChange={(e) => {
                    setJsonText(e.target.value);
                    setJsonError(null);
                  }}
                  spellCheck={false}
                />
              </Field>
              {pastedConfig && (
                <Callout tone="info" role="status" testId="pasted-config">
                  This is a client config ({pastedConfig}). Review servers shows every server in it with the
                  command it runs, and adds the ones you choose.
                </Callout>
              )}
            </div>
          </TabPanel>
        </Tabs>
      </form>
      <div ref={outcome}>
        <ErrorNote error={save.error} testId="save-error" />
        {test.data && <TestResult result={test.data} />}
        <ErrorNote error={test.error} testId="test-error" />
      </div>
    </Dialog>
  );
}

function clientConfigKindOf(text: string): string | null {
  try {
    return clientConfigKind(JSON.parse(text));
  } catch {
    return null;
  }
}

function FormFields({
  draft,
  set,
  commandLine,
}: {
  draft: ServerDraft;
  set: (patch: Partial<ServerDraft>) => void;
  commandLine: string;
}) {
  const stdio = isLocalTransport(draft.transport);
  return (
    <div className="form-grid">
      <Field label="Name" hint="Letters, digits, “_” and “-”. Tools appear as mcp__name__tool.">
        <input
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          placeholder="my-server"
          required
        />
      </Field>
      <Field label="Transport">
        <select
          value={draft.transport}
          onChange={(e) => set({ transport: e.target.value as ServerDraft['transport'] })}
        >
          <option value="stdio">stdio (a local command)</option>
          <option value="http">Streamable HTTP</option>
          <option value="sse">SSE (legacy)</option>
        </select>
      </Field>
      {stdio ? (
        <>
          <Field label="Command" hint="npx, node, uvx, python3, docker… or a full path.">
            <input
              value={draft.command}
              onChange={(e) => set({ command: e.target.value })}
              placeholder="npx"
            />
          </Field>
          <Field label="Working folder" hint="Optional: where the command runs.">
            <input
              value={draft.cwd}
              onChange={(e) => set({ cwd: e.target.value })}
              placeholder="/path/to/folder"
            />
          </Field>
          <Field label="Arguments (one per line)" className="span-2">
            <textarea
              className="code"
              rows={3}
              value={draft.args}
              onChange={(e) => set({ args: e.target.value })}
              placeholder={'-y\n@modelcontextprotocol/server-everything'}
            />
          </Field>
          <div className="span-2">
            <KeyValueEditor
              label="Environment"
              keyHint="NAME"
              rows={draft.env}
              onChange={(env) => set({ env })}
            />
          </div>
          <ConfinementFields
            command={draft.command}
            args={draft.args}
            rest={draft.rest}
            setRest={(rest) => set({ rest })}
          />
        </>
      ) : (
        <>
          <Field label="URL" className="span-2">
            <input
              value={draft.url}
              onChange={(e) => set({ url: e.target.value })}
              placeholder="https://example.com/mcp"
            />
          </Field>
          <div className="span-2">
            <KeyValueEditor
              label="Headers"
              keyHint="Header-Name"
              rows={draft.headers}
              onChange={(headers) => set({ headers })}
            />
          </div>
        </>
      )}
      <Field label="Ask before tool calls" className="span-2">
        <select
          aria-label="Approval policy"
          value={draft.policy}
          onChange={(e) => set({ policy: e.target.value as ServerPolicy })}
        >
          {POLICIES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Timeout (seconds)" hint={`Per tool call; default ${DEFAULT_TIMEOUT_SECONDS}.`}>
        <input
          inputMode="numeric"
          value={draft.timeoutSeconds}
          onChange={(e) => set({ timeoutSeconds: e.target.value })}
          placeholder={String(DEFAULT_TIMEOUT_SECONDS)}
        />
      </Field>
      {stdio && (
        <div className="span-2 trust-field">
          <Switch
            label="Trust this command"
            checked={draft.trust}
            onCheckedChange={(trust) => set({ trust })}
            description="Mooring runs only known runtimes (npx, node, uvx, python, deno, bun, docker) from your PATH unless you trust the command. It runs with your rights."
          />
          {draft.trust && (
            <div className="trust-line" data-testid="trust-command-line">
              <span className="field-hint">You trust exactly this command line:</span>
              <CodeBlock code={commandLine} label="command line" wrap />
            </div>
          )}
        </div>
      )}
      <AdvancedFields draft={draft} set={set} stdio={stdio} />
    </div>
  );
}
