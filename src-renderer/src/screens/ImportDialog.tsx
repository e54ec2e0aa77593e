// Import from Claude Desktop / Cursor / VS Code / Zed: paste or choose the file (or arrive with one: a
// config pasted into the Add form, a client detected on this machine), see every server with the full
// command line it would run, what else it would be allowed (working directory, environment and header
// names, policy) and which settings of the file are never imported, and consent per server before anything
// is written. The chosen servers are added all or nothing, each with the default safe set. Every text here
// comes from the file: control and bidi characters are shown as escapes (docs/untrusted-text.md, "Untrusted text").
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { escapeUntrusted as shown } from '@shared/untrustedText';
import { useTRPC } from '../api/trpc';
import { ConfigVariables } from '../components/ConfigVariables';
import { ErrorNote } from '../components/ErrorNote';
import { Button, Callout, Dialog } from '../ui';
import { useUi, type ImportSeed } from '../stores/uiStore';

export function ImportDialog({ onClose, seed }: { onClose: () => void; seed?: ImportSeed | null }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const notify = useUi((u) => u.notify);
  const [text, setText] = useState(seed?.text ?? '');
  const [fileName, setFileName] = useState(seed?.fileName ?? 'pasted text');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  // VS Code inputs (`${input:ID}`): asked here, kept in the keychain, filled in when the server starts.
  const [inputValues, setInputValues] = useState<Record<string, string>>({});
  // Per server, the secret-looking variables the person ticked to send to its remote URL or headers.
  const [allowVars, setAllowVars] = useState<Record<string, Set<string>>>({});
  const tickVariable = (server: string, name: string, allow: boolean) =>
    setAllowVars((a) => {
      const next = new Set(a[server]);
      if (allow) next.add(name);
      else next.delete(name);
      return { ...a, [server]: next };
    });
  // Where Claude Desktop keeps its servers on this platform: the file to choose below.
  const locations = useQuery({ ...trpc.clients.locations.queryOptions(), enabled: !seed });
  const claudeFile = locations.data?.find((l) => l.client === 'claude-desktop')?.path;
  const preview = useMutation(
    trpc.servers.previewImport.mutationOptions({
      // A server whose secrets have no keychain to go to starts unchecked: the others can still be imported.
      onSuccess: (p) =>
        setChosen(
          new Set(
            p.servers
              .filter((s) => !s.exists && !p.missingKeychain?.servers[s.config.name])
              .map((s) => s.config.name),
          ),
        ),
    }),
  );
  const doImport = useMutation(
    trpc.servers.importServers.mutationOptions({
      onSuccess: (r) => {
        void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
        const safe = Object.entries(r.safeDefaults)
          .filter(([, d]) => d.disabledCount > 0)
          .map(([name]) => name);
        if (safe.length) notify({ servers: safe });
      },
    }),
  );
  // Arriving with a file (pasted into the Add form, or a detected client): show its servers at once.
  const previewSeed = preview.mutate;
  useEffect(() => {
    if (seed) previewSeed({ text: seed.text, fileName: seed.fileName });
  }, [seed, previewSeed]);
  const resetImport = doImport.reset;
  const toggle = (name: string) => {
    resetImport(); // an error about the last choice no longer applies
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(name)) n.delete(name);
      else n.add(name);
      return n;
    });
  };

  const importChosen = () =>
    // The text that was previewed, not the box's current content: consent covers what was shown.
    doImport.mutate({
      text: preview.variables?.text ?? text,
      fileName: preview.variables?.fileName ?? fileName,
      names: (preview.data?.servers ?? []).filter((s) => chosen.has(s.config.name)).map((s) => s.config.name),
      inputValues: Object.fromEntries(Object.entries(inputValues).filter(([, v]) => v !== '')),
      allowVariables: Object.fromEntries(
        Object.entries(allowVars)
          .filter(([server, names]) => chosen.has(server) && names.size > 0)
          .map(([server, names]) => [server, [...names]]),
      ),
    });
  const footer = preview.data ? (
    <>
      {/* Where the person is looking when an import fails: next to the button they pressed. */}
      <div className="dialog-footer-note">
        <ErrorNote error={doImport.error} details testId="import-error" />
      </div>
      <Button onClick={onClose}>{doImport.data ? 'Close' : 'Cancel'}</Button>
      <Button
        variant="primary"
        disabled={chosen.size === 0 || !!doImport.data}
        loading={doImport.isPending}
        onClick={importChosen}
      >
        I trust these commands: add {chosen.size}
      </Button>
    </>
  ) : (
    !seed && (
      <>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="primary"
          disabled={!text.trim()}
          loading={preview.isPending}
          onClick={() => preview.mutate({ text, fileName })}
        >
          Preview
        </Button>
      </>
    )
  );

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Import servers"
      description={
        seed
          ? `From ${shown(seed.fileName)}.`
          : 'From Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Zed, Goose, Continue, LM Studio or Cherry Studio.'
      }
      size="lg"
      testId="import-dialog"
      footer={footer || undefined}
    >
      {!seed && (
        <>
          {claudeFile && (
            <p className="muted" data-testid="import-claude-path">
              Claude Desktop keeps its servers in <code>{claudeFile}</code> (Settings › Developer › Edit
              Config opens it). “From other apps” on the Servers screen lists the configs found on this
              machine.
            </p>
          )}
          <label className="stack">
            Choose the file
            <input
              type="file"
              accept=".json,.jsonc,.yaml,.yml,application/json"
              onChange={async (e) => {
                const f = e.target.files?.[0];
                if (!f) return;
                setFileName(f.name);
                setText(await f.text());
              }}
            />
          </label>
          <label className="stack">
            …or paste its content
            <textarea
              aria-label="Configuration to import"
              className="code"
              rows={8}
              value={text}
              onChange={(e) => setText(e.target.value)}
              spellCheck={false}
              placeholder='{"mcpServers": {"…": {"command": "npx", "args": ["…"]}}}'
            />
          </label>
        </>
      )}
      <ErrorNote error={preview.error} />
      {preview.data && (
        <div className="import-preview">
          <p className="muted">
            This is {preview.data.formatName}. Check each command: it runs with your rights. Destructive tools
            start off.
          </p>
          {preview.data.warnings.map((w) => (
            <p key={w} className="warn-text">
              {shown(w)}
            </p>
          ))}
          {preview.data.renamed.map((r) => (
            <p key={r.to} className="muted">
              “{shown(r.from)}” is imported as “{r.to}”.
            </p>
          ))}
          {preview.data.missingKeychain && (
            <NoKeychainNote
              servers={Object.keys(preview.data.missingKeychain.servers)}
              reason={preview.data.missingKeychain.reason}
            />
          )}
          {preview.data.inputs.map((i) => (
            <label key={i.id} className="stack" data-testid={`import-input-${i.id}`}>
              {shown(i.description ?? i.id)} (for {shown(i.usedBy.join(', '))}; kept in the keychain)
              <input
                aria-label={`Input ${i.id}`}
                type={i.password ? 'password' : 'text'}
                autoComplete="off"
                value={inputValues[i.id] ?? ''}
                onChange={(e) => setInputValues((v) => ({ ...v, [i.id]: e.target.value }))}
              />
            </label>
          ))}
          <ul className="plain">
            {preview.data.servers.map((s) => (
              <li key={s.config.name} className="consent-row">
                <label className="inline">
                  <input
                    type="checkbox"
                    disabled={s.exists}
                    checked={chosen.has(s.config.name)}
                    onChange={() => toggle(s.config.name)}
                  />
                  <strong>{s.config.name}</strong>{' '}
                  {s.exists && <span className="muted">(already configured)</span>}
                </label>
                <code className="command-line" data-testid="import-command-line">
                  {shown(s.commandLine)}
                </code>
                <p className="confine-consent" data-testid="import-confinement">
                  {shown(s.confinement)}
                </p>
                {preview.data.missingKeychain?.servers[s.config.name] && (
                  <p className="warn-text" data-testid="import-needs-keychain">
                    Needs the keychain for{' '}
                    {shown(preview.data.missingKeychain.servers[s.config.name]!.join(', '))}
                  </p>
                )}
                {s.grants.length > 0 && (
                  <ul className="plain" data-testid="import-grants">
                    {s.grants.map((g) => (
                      <li key={g.field}>{shown(g.text)}</li>
                    ))}
                  </ul>
                )}
                <ConfigVariables
                  server={s.config.name}
                  variables={s.variables}
                  ticked={allowVars[s.config.name] ?? new Set()}
                  onTick={(name, allow) => tickVariable(s.config.name, name, allow)}
                  testId="import-variables"
                />
                {s.dropped.length > 0 && (
                  <ul className="plain warn-text" data-testid="import-dropped">
                    {s.dropped.map((d) => (
                      <li key={d.text}>
                        Not imported: {shown(d.text)}. Turn it on yourself for this server afterwards, if you
                        must.
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
          {doImport.data && (
            <ul className="plain" data-testid="import-results">
              {doImport.data.added.map((name) => (
                <li key={name} className="ok-text">
                  {name}: added
                </li>
              ))}
              {doImport.data.replaced.map((name) => (
                <li key={name} className="ok-text">
                  {name}: replaced
                </li>
              ))}
              {/* Left out for want of a keychain: said again here, so none goes missing without a word. */}
              {Object.entries(preview.data.missingKeychain?.servers ?? {})
                .filter(([name]) => !doImport.variables?.names?.includes(name))
                .map(([name, fields]) => (
                  <li key={`${name}-kept-out`} className="warn-text" data-testid="import-left-out">
                    {shown(name)}: not imported; {shown(fields.join(', '))} could not be kept without a
                    keychain. Put {'${env:NAME}'} in the file for each, export NAME, and import it again.
                  </li>
                ))}
              {Object.entries(doImport.data.safeDefaults).map(([name, d]) => (
                <li key={`${name}-safe`} className="muted">
                  {name}:{' '}
                  {d.message ??
                    (d.pending
                      ? 'its destructive tools will be off when it first connects'
                      : 'no destructive tools')}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Dialog>
  );
}

/** No keychain here: which servers cannot be imported as they are, and the two ways forward. */
function NoKeychainNote({ servers, reason }: { servers: string[]; reason: string }) {
  return (
    <Callout
      tone="warning"
      role="note"
      testId="import-no-keychain"
      title={`No keychain is reachable, so ${servers.length === 1 ? 'this server' : 'these servers'} cannot keep ${servers.length === 1 ? 'its' : 'their'} secrets: ${servers.map((n) => shown(n)).join(', ')}`}
    >
      <p>
        {servers.length === 1 ? 'It is' : 'They are'} unchecked; import the others as they are. To bring{' '}
        {servers.length === 1 ? 'it' : 'them'} too, replace each secret value in the file with{' '}
        <code>{'${env:NAME}'}</code> (e.g. <code>{'"GITHUB_TOKEN": "${env:GITHUB_TOKEN}"'}</code>) and export
        NAME before starting Mooring, then preview again.
      </p>
      <details>
        <summary>Details</summary>
        <pre className="error-details">{shown(reason)}</pre>
      </details>
    </Callout>
  );
}
