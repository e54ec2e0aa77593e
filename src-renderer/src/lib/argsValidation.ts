// Edited arguments are checked against the tool's input schema before they are sent (issue 5,
// approval dialog). zod converts the JSON Schema; a schema it cannot read only skips the check.
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
      return { ok: false, error: `${where}: ${issue.message}` };
    }
  }
  return { ok: true, value: value as Record<string, unknown> };
}
