// mcp_servers.json cannot be read (a typo, a wrong type): in the app, say where (the file, each line and
// column) and what to do here — fix it in an editor; the screen loads it again once it is saved whole
// (the core watches the file, docs/data-on-disk.md "Data on disk"). The terminal's hint is for the CLI.
import { parseConfigIssues } from '@shared/configIssues';
import { escapeUntrusted as shown } from '@shared/untrustedText';
import { errorOf } from '../api/errors';
import { ErrorNote } from '../components/ErrorNote';
import { Callout, CodeBlock } from '../ui';

export function ServersFileProblem({ error }: { error: unknown }) {
  const e = errorOf(error);
  const issues = e?.code === 'config_invalid' ? parseConfigIssues(e.message) : [];
  if (!e || issues.length === 0) return <ErrorNote error={error} />;
  const file = issues[0]!.file;
  return (
    <Callout
      tone="danger"
      role="alert"
      testId="servers-file-invalid"
      title="Mooring cannot read your servers file, so no server runs"
    >
      <p>
        Open it in a text editor and fix {issues.length === 1 ? 'this line' : 'these lines'}. Mooring has not
        changed it, and loads it again by itself as soon as it is saved without errors.
      </p>
      <CodeBlock label="path" code={file} testId="servers-file-path" />
      <ul className="plain" data-testid="servers-file-issues">
        {issues.map((i) => (
          <li key={`${i.line}:${i.column}:${i.text}`}>
            Line {i.line}, column {i.column}: {shown(i.text)}
          </li>
        ))}
      </ul>
    </Callout>
  );
}
