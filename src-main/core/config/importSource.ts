// The text of a file to import, as a value with positions: JSON with comments (jsonDiagnostics.ts), or YAML
// (Goose's config.yaml, Continue's config.yaml and block files) through the `yaml` package, whose nodes keep
// their offsets too, so a bad entry is named at its line and column in either. A YAML file is read as YAML
// by its name; a file whose name says nothing is tried as JSON first and as YAML when it does not look
// like JSON at all.
import { LineCounter, parseDocument, type Document } from 'yaml';
import {
  ConfigInvalidError,
  offsetOf,
  parseJsonText,
  type ConfigIssue,
  type JsonPath,
} from './jsonDiagnostics';

export interface ImportSource {
  value: unknown;
  kind: 'json' | 'yaml';
  /** Where `path` (or its nearest ancestor that exists) starts: 1-based line and column. */
  position(path: readonly (string | number)[]): { line: number; column: number };
}

const isYamlName = (fileName: string) => /\.ya?ml$/i.test(fileName);

export function readImportSource(text: string, opts: { fileName: string; hint: string }): ImportSource {
  if (isYamlName(opts.fileName)) return readYaml(text, opts);
  try {
    const parsed = parseJsonText(text, { fileName: opts.fileName, allowComments: true, hint: opts.hint });
    return {
      value: parsed.value,
      kind: 'json',
      position: (path) => parsed.lines.position(offsetOf(parsed.root, path as JsonPath)),
    };
  } catch (err) {
    // Pasted YAML (no file name to tell): JSON starts with "{" or "[", after comments.
    const first = text.replace(/^\s*(\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*/, '')[0];
    if (first === '{' || first === '[' || first === undefined) throw err;
    return readYaml(text, opts);
  }
}

function readYaml(text: string, opts: { fileName: string; hint: string }): ImportSource {
  const lines = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number) => {
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
  if (doc.errors.length) {
    const issues: ConfigIssue[] = doc.errors.map((e) => ({
      file: opts.fileName,
      ...at(e.pos[0]),
      path: '',
      message: `invalid YAML: ${e.message.split('\n')[0]}`,
    }));
    throw new ConfigInvalidError(issues, opts.hint);
  }
  return {
    value: doc.toJS({ maxAliasCount: 100 }) as unknown,
    kind: 'yaml',
    position(path) {
      for (let n = path.length; n >= 0; n--) {
        const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
        if (node && typeof node === 'object' && node.range) return at(node.range[0]);
      }
      const root = doc.contents as { range?: [number, number, number] } | null;
      return at(root?.range?.[0] ?? 0);
    },
  };
}
