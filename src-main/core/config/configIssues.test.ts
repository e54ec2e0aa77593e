// The app reads a bad servers file's issues back from the error's message (shared/configIssues.ts): the
// lines the core writes must parse to the same file, line and column, for every kind of mistake.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigIssues } from '@shared/configIssues';
import { ConfigInvalidError } from './jsonDiagnostics';
import { loadServersFile } from './serversFile';

async function issuesOf(text: string): Promise<{ file: string; err: ConfigInvalidError }> {
  const file = join(mkdtempSync(join(tmpdir(), 'mooring-issues-')), 'mcp_servers.json');
  writeFileSync(file, text);
  const err = await loadServersFile(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigInvalidError);
  return { file, err: err as ConfigInvalidError };
}

describe('a servers file error, read back by the app', () => {
  it('a syntax error: file, line and column', async () => {
    const { file, err } = await issuesOf(
      '{\n  "servers": [\n    { "name": "x", "command": "node", }\n  ]\n}\n',
    );
    expect(parseConfigIssues(err.message)).toEqual(
      err.issues.map((i) => ({ file, line: i.line, column: i.column, text: expect.any(String) })),
    );
    expect(parseConfigIssues(err.message)[0]).toMatchObject({ line: 3, column: 39 });
  });

  it('schema issues: one per line, each with its path', async () => {
    const { file, err } = await issuesOf(
      JSON.stringify(
        { servers: [{ name: 'a', command: 'node', timeoutSeconds: 'x' }, { name: 'a' }] },
        null,
        2,
      ),
    );
    const parsed = parseConfigIssues(err.message);
    expect(parsed.length).toBe(err.issues.length);
    expect(parsed.length).toBeGreaterThan(1);
    for (const [i, p] of parsed.entries()) {
      expect(p).toMatchObject({ file, line: err.issues[i]!.line, column: err.issues[i]!.column });
      expect(p.text).toContain(err.issues[i]!.message);
    }
  });

  it('a Windows path keeps its drive letter', () => {
    expect(parseConfigIssues('C:\\Users\\me\\.mooring\\mcp_servers.json:2:5: servers: oops')).toEqual([
      { file: 'C:\\Users\\me\\.mooring\\mcp_servers.json', line: 2, column: 5, text: 'servers: oops' },
    ]);
  });
});
