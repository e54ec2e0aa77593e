// The answer path of a form elicitation (spec 2025-11-25 "Elicitation", form mode): the user's fields,
// with the schema's defaults for every omitted field (SEP-1034), validated against the requested schema
// before anything goes back to the server. The UI renders the form; this decides what is a valid answer.
import { z } from 'zod';
import type { ElicitationFormSchema } from '@shared/interactions';
import { MooringError } from '../errors';

export type ElicitValue = string | number | boolean | string[];
export type ElicitContent = Record<string, ElicitValue>;

const isElicitValue = (v: unknown): v is ElicitValue =>
  typeof v === 'string' ||
  typeof v === 'number' ||
  typeof v === 'boolean' ||
  (Array.isArray(v) && v.every((x) => typeof x === 'string'));

/** Fills every field the user left out with the schema's `default`, when it has a valid one (SEP-1034). */
export function applyElicitationDefaults(
  schema: ElicitationFormSchema,
  content: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...content };
  for (const [key, field] of Object.entries(schema.properties ?? {}))
    if (out[key] === undefined && isElicitValue(field.default)) out[key] = structuredClone(field.default);
  return out;
}

// One compiled validator per schema text: a dialog re-validates on every submit attempt.
const compiled = new Map<string, z.ZodType>();
function validatorFor(schema: ElicitationFormSchema): z.ZodType {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) {
    v = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    if (compiled.size > 200) compiled.clear();
    compiled.set(key, v);
  }
  return v;
}

/**
 * The content to send for an accepted form: defaults applied, only the schema's own fields kept, every
 * field checked against its definition (types, formats, ranges, enums, required). Throws a `usage`
 * MooringError naming each bad field, so the dialog can show it and the request stays open.
 */
export function completeElicitationContent(
  schema: ElicitationFormSchema,
  content: Record<string, unknown> | undefined,
): ElicitContent {
  const filled = applyElicitationDefaults(schema, content);
  const known = Object.keys(schema.properties ?? {});
  const kept = Object.fromEntries(
    known.filter((k) => filled[k] !== undefined).map((k) => [k, filled[k]]),
  ) as Record<string, unknown>;
  let validator: z.ZodType;
  try {
    validator = validatorFor(schema);
  } catch (err) {
    throw new MooringError(
      'protocol_error',
      `The server asked for a form Mooring cannot read: ${(err as Error).message}`,
      'Decline the request and report it to the server author.',
    );
  }
  const parsed = validator.safeParse(kept);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const field = String(i.path[0] ?? 'form');
      const title = schema.properties[field]?.title;
      return `${title ? `${title} (${field})` : field}: ${i.message}`;
    });
    throw new MooringError(
      'usage',
      `The form is not valid: ${problems.join('; ')}.`,
      'Correct the fields named above and submit again, or decline the request.',
    );
  }
  for (const [k, v] of Object.entries(kept))
    if (!isElicitValue(v))
      throw new MooringError(
        'usage',
        `The form is not valid: ${k} must be text, a number, true/false or a list of texts.`,
        'Correct the field and submit again.',
      );
  return kept as ElicitContent;
}
