// Parse a JSON (or JSONC) document and validate it with zod, reporting every problem with
// file:line:column, the path inside the document, and what is wrong (docs/data-on-disk.md, "Data on disk").
// jsonc-parser keeps node offsets, which zod lacks.
import {
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
  type ParseErrorCode,
} from 'jsonc-parser';
import type { z } from 'zod';
import { MooringError } from '../errors';

export interface ConfigIssue {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units like every editor's column. */
  column: number;
  /** `servers[2].timeoutSeconds`; empty for the whole document. */
  path: string;
  message: string;
}

/** A `config_invalid` error that also carries the issues as data, for a UI that wants to list them. */
export class ConfigInvalidError extends MooringError {
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[], hint: string) {
    super('config_invalid', issues.map(formatIssue).join('\n'), hint);
    this.issues = issues;
  }
}

export function formatIssue(i: ConfigIssue): string {
  const where = i.file ? `${i.file}:${i.line}:${i.column}: ` : '';
  return `${where}${i.path ? `${i.path}: ` : ''}${i.message}`;
}

export type JsonPath = (string | number)[];

/** `['servers', 2, 'headers', 'X-Api-Key']` → `servers[2].headers["X-Api-Key"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][\w$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

// Names as printParseErrorCode returns them, in words a person reads.
const PARSE_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'invalid character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected content after the end of the document',
  InvalidCommentToken: 'comments are not allowed in this file',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
};

function parseErrorMessage(code: ParseErrorCode): string {
  const name = printParseErrorCode(code);
  return PARSE_MESSAGES[name] ?? `invalid JSON (${name})`;
}

/** Maps offsets to 1-based line/column. */
export class LineMap {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

export interface ParsedJson {
  text: string;
  root: Node;
  value: unknown;
  lines: LineMap;
  fileName: string;
}

export interface ParseOptions {
  fileName: string;
  /** JSONC: comments and trailing commas (VS Code files have them). Our own files are strict JSON. */
  allowComments?: boolean;
  hint: string;
}

/** Syntax only: returns the tree or throws every syntax error with its position. */
export function parseJsonText(text: string, opts: ParseOptions): ParsedJson {
  const errors: ParseError[] = [];
  const lenient = opts.allowComments ?? false;
  const root = parseTree(text, errors, {
    disallowComments: !lenient,
    allowTrailingComma: lenient,
    allowEmptyContent: false,
  });
  const lines = new LineMap(text);
  const at = (offset: number, path: string, message: string): ConfigIssue => ({
    file: opts.fileName,
    ...lines.position(offset),
    path,
    message,
  });
  // Only the first syntax error: the parser goes on after it and reports what follows from it (a stray
  // "," gives four lines at two places), which sends the reader to look for mistakes that are not there.
  const issues: ConfigIssue[] = errors.slice(0, 1).map((e) => at(e.offset, '', parseErrorMessage(e.error)));
  if (!root && issues.length === 0) issues.push(at(0, '', 'the file is empty; expected a JSON object'));
  if (root) issues.push(...duplicateKeys(root).map((d) => at(d.offset, formatPath(d.path), d.message)));
  if (issues.length > 0 || !root) throw new ConfigInvalidError(issues, opts.hint);
  return { text, root, value: getNodeValue(root), lines, fileName: opts.fileName };
}

/** JSON lets a key repeat and keeps the last one; a hand-edited file that does so would lose data silently. */
function duplicateKeys(
  node: Node,
  path: JsonPath = [],
): { offset: number; path: JsonPath; message: string }[] {
  const out: { offset: number; path: JsonPath; message: string }[] = [];
  if (node.type === 'object') {
    const seen = new Set<string>();
    for (const prop of node.children ?? []) {
      const key = prop.children?.[0]?.value as string | undefined;
      const value = prop.children?.[1];
      if (key === undefined) continue;
      if (seen.has(key))
        out.push({
          offset: prop.offset,
          path: [...path, key],
          message: `the key "${key}" appears more than once`,
        });
      seen.add(key);
      if (value) out.push(...duplicateKeys(value, [...path, key]));
    }
  } else if (node.type === 'array') {
    node.children?.forEach((c, i) => out.push(...duplicateKeys(c, [...path, i])));
  }
  return out;
}

/** The offset of the node at `path`, or of its nearest ancestor that exists (a missing key points at its object). */
export function offsetOf(root: Node, path: readonly PropertyKey[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n) as JsonPath);
    if (node) return node.parent?.type === 'property' ? node.parent.offset : node.offset;
  }
  return root.offset;
}

/** One zod issue → a message a person can act on. */
export function describeZodIssue(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string }[] {
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((k) => ({ path: [...issue.path, k], message: `unknown key "${k}"` }));
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message))
    return [{ path: issue.path, message: `is required (expected ${issue.expected})` }];
  if (issue.code === 'invalid_value' && issue.values.length > 0)
    return [
      {
        path: issue.path,
        message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`,
      },
    ];
  return [{ path: issue.path, message: issue.message }];
}

/** Validation issues at their place in the parsed text; `base` prefixes paths when the schema sees a sub-tree. */
export function locateIssues(
  parsed: ParsedJson,
  issues: readonly z.core.$ZodIssue[],
  opts: { base?: JsonPath; displayBase?: JsonPath } = {},
): ConfigIssue[] {
  const base = opts.base ?? [];
  const display = opts.displayBase ?? base;
  return issues.flatMap(describeZodIssue).map((d) => ({
    file: parsed.fileName,
    ...parsed.lines.position(offsetOf(parsed.root, [...base, ...d.path])),
    path: formatPath([...display, ...d.path]),
    message: d.message,
  }));
}

/** Parse text and validate it with `schema`, throwing one ConfigInvalidError that lists every problem. */
export function parseAndValidate<S extends z.ZodType>(
  text: string,
  schema: S,
  opts: ParseOptions,
): z.output<S> {
  const parsed = parseJsonText(text, opts);
  const result = schema.safeParse(parsed.value);
  if (!result.success) throw new ConfigInvalidError(locateIssues(parsed, result.error.issues), opts.hint);
  return result.data;
}

/** Issues of an in-memory value (no file yet): path and message only. */
export function issuesWithoutFile(issues: readonly z.core.$ZodIssue[], prefix: JsonPath = []): ConfigIssue[] {
  return issues.flatMap(describeZodIssue).map((d) => ({
    file: '',
    line: 0,
    column: 0,
    path: formatPath([...prefix, ...d.path]),
    message: d.message,
  }));
}
