// The typed tool API a model programs against in code mode (docs/code-mode.md, "The tool API"): one
// compact TypeScript declaration per tool of the conversation — its input and output types from
// `inputSchema` / `outputSchema`, its description as a doc comment. Names, descriptions and schemas come
// from servers: untrusted. Descriptions are shown with unsafe characters escaped (shared/untrustedText.ts)
// and cannot close their comment; property names are written as JSON strings when not plain identifiers.
import { escapeUntrusted } from '@shared/untrustedText';

export interface DeclaredTool {
  /** The name the model calls it by in this conversation. */
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

/** A tool's key in the program's `tools` object, and the name the call resolves. */
export interface ToolFunction {
  key: string;
  name: string;
}

/** Characters of a description shown in a declaration; the rest is cut (the tool's schema is whole). */
const DESCRIPTION_CHARS = 400;
/** How deep nested object types are written out; deeper is `unknown`. */
const MAX_DEPTH = 4;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The keys of `tools`: the model's names made identifiers, each unique. */
export function toolFunctions(tools: readonly DeclaredTool[]): ToolFunction[] {
  const used = new Set<string>();
  return tools.map(({ name }) => {
    const base = name.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(?=\d)/, '_') || '_';
    let key = base;
    for (let i = 2; used.has(key); i++) key = `${base}_${i}`;
    used.add(key);
    return { key, name };
  });
}

/** One line of doc comment text: escaped, whitespace collapsed, `*\/` unable to end the comment. */
export function docText(text: string, max = DESCRIPTION_CHARS): string {
  const one = escapeUntrusted(text.replace(/\s+/g, ' ').trim());
  const cut = one.length > max ? `${one.slice(0, max - 1)}…` : one;
  return cut.replace(/\*\//g, '*\\/');
}

const propertyName = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(escapeUntrusted(name)));

/** A JSON Schema as a TypeScript type, compact; what it cannot say is `unknown`. */
export function schemaType(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return 'unknown';
  const s = schema as Record<string, unknown>;
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return s.enum.slice(0, 20).map(literal).join(' | ');
  const union = (s.anyOf ?? s.oneOf) as unknown;
  if (Array.isArray(union) && union.length) return union.map((u) => schemaType(u, depth + 1)).join(' | ');
  const type = s.type;
  if (Array.isArray(type)) return type.map((t) => schemaType({ ...s, type: t }, depth)).join(' | ');
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = schemaType(s.items, depth + 1);
      return /^[\w.]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object':
    case undefined:
      return s.properties && typeof s.properties === 'object'
        ? objectType(s, depth)
        : type
          ? 'object'
          : 'unknown';
    default:
      return 'unknown';
  }
}

function objectType(s: Record<string, unknown>, depth: number): string {
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string') : []);
  const props = Object.entries(s.properties as Record<string, unknown>).map(([name, p]) => {
    const desc =
      p && typeof p === 'object' && typeof (p as { description?: unknown }).description === 'string'
        ? `/** ${docText((p as { description: string }).description, 120)} */ `
        : '';
    return `${desc}${propertyName(name)}${required.has(name) ? '' : '?'}: ${schemaType(p, depth + 1)}`;
  });
  return props.length ? `{ ${props.join('; ')} }` : 'object';
}

function literal(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(escapeUntrusted(v)) : (JSON.stringify(v) ?? 'unknown');
}

/** The declarations the model reads in run_code's description. */
export function toolDeclarations(tools: readonly DeclaredTool[]): string {
  const keys = toolFunctions(tools);
  const lines = tools.map((t, i) => {
    const doc = t.description ? `  /** ${docText(t.description)} */\n` : '';
    const out = t.outputSchema ? schemaType(t.outputSchema) : 'ToolResult';
    return `${doc}  ${keys[i]!.key}(args: ${schemaType(t.inputSchema)}): Promise<${out}>;`;
  });
  return [
    '/** What a tool without an output schema returns: its text, and its structured content if any. */',
    'type ToolResult = { text: string; structured?: unknown };',
    'declare const tools: {',
    ...lines,
    '};',
    '/** Adds a line to what the program printed (shown to you with its result). */',
    'declare function print(...values: unknown[]): void;',
  ].join('\n');
}
