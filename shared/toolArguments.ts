// Tool arguments checked against the tool's input schema before they are sent: arguments a person edits (the
// approval dialog, the Playground) and those typed on a command line (`mooring mcp call`). zod converts the
// JSON Schema; a schema it cannot read only skips the check. What a tool expects is said in the same words
// everywhere: each property with its type, required ones marked, and a JSON object to start from.
import { z } from 'zod';

export type ArgsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export function checkArgs(text: string, schema: unknown): ArgsCheck {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${(err as Error).message}` };
  }
  return checkArgValues(value, schema);
}

/** The check of `checkArgs` on arguments already parsed. */
export function checkArgValues(value: unknown, schema: unknown): ArgsCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: 'The arguments must be one JSON object, e.g. {"path": "…"}.' };
  if (schema && typeof schema === 'object') {
    let parser: z.ZodType | undefined;
    try {
      parser = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      parser = undefined;
    }
    const result = parser?.safeParse(value);
    if (result && !result.success) {
      const issue = result.error.issues[0]!;
      const where = issue.path.length ? issue.path.join('.') : 'arguments';
      // zod says "Invalid input: expected string, received undefined" for a property left out.
      const missing = issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
      return {
        ok: false,
        error: missing ? `${where} is required (${issue.expected})` : `${where}: ${issue.message}`,
      };
    }
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** A JSON Schema's type in a word or two: "string", "integer", "one of fast, slow", "array of string". */
function typeOf(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return 'any';
  const s = schema as { type?: unknown; enum?: unknown[]; items?: unknown; const?: unknown };
  if (Array.isArray(s.enum) && s.enum.length)
    return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string');
  if (types.length === 0) return 'any';
  return types.map((t) => (t === 'array' && s.items ? `array of ${typeOf(s.items)}` : t)).join(' or ');
}

/**
 * What a tool expects, for a person: one line per property (`  message (string, required): Message to
 * echo`), required ones first, then a JSON object to start from (`argsTemplate`).
 */
export function describeExpectedArgs(schema: unknown): { lines: string[]; example: string } {
  const s = (schema && typeof schema === 'object' ? schema : {}) as {
    properties?: Record<string, unknown>;
    required?: unknown;
  };
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string') : []);
  const names = Object.keys(s.properties ?? {}).sort(
    (a, b) => Number(required.has(b)) - Number(required.has(a)),
  );
  const lines = names.map((name) => {
    const prop = s.properties![name];
    const description = (prop as { description?: unknown } | undefined)?.description;
    const text = typeof description === 'string' ? `: ${description.split('\n')[0]}` : '';
    return `${name} (${typeOf(prop)}${required.has(name) ? ', required' : ''})${text}`;
  });
  return { lines, example: argsTemplate(schema) };
}

/** A value of a JSON Schema's type for a person to fill in: its default, its first enum value, or empty. */
function sampleOf(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return '';
  const s = schema as { type?: unknown; default?: unknown; enum?: unknown[]; const?: unknown };
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '';
  }
}

/**
 * The arguments a tool needs, as JSON to fill in: each required property of its input schema with a value
 * of its type (its default or first enum value where the schema gives one). `{}` for a tool that needs
 * none. What the Playground starts from, so a person sees what to fill in rather than an empty object.
 */
export function argsTemplate(schema: unknown): string {
  const s = (schema && typeof schema === 'object' ? schema : {}) as {
    properties?: Record<string, unknown>;
    required?: unknown;
  };
  const required = Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string') : [];
  if (!required.length) return '{}';
  const value = Object.fromEntries(required.map((name) => [name, sampleOf(s.properties?.[name])]));
  return JSON.stringify(value, null, 2);
}
