// Arguments a person edits (the approval dialog, the Playground) are checked against the tool's input
// schema before they are sent. zod converts the JSON Schema; a schema it cannot read only skips the check.
import { z } from 'zod';

export type ArgsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export function checkArgs(text: string, schema: unknown): ArgsCheck {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${(err as Error).message}` };
  }
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
