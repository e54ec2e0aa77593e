// The form of an elicitation (spec 2025-11-25 "Elicitation", form mode): the requested flat
// schema as field values with the schema's defaults applied (SEP-1034), and the checks the spec's
// primitive schemas allow, per field, before the answer is sent. The core checks again (broker).
import type { ElicitationFieldSchema, ElicitationFormSchema } from '@shared/interactions';

export type FieldValue = string | boolean | string[];
export type FormValues = Record<string, FieldValue>;
export type ContentValue = string | number | boolean | string[];

export type FieldKind = 'text' | 'number' | 'checkbox' | 'select' | 'multi';

export function fieldKind(f: ElicitationFieldSchema): FieldKind {
  if (f.type === 'boolean') return 'checkbox';
  if (f.type === 'number' || f.type === 'integer') return 'number';
  if (f.type === 'array') return 'multi';
  if (f.enum || f.oneOf) return 'select';
  return 'text';
}

/** The choices of a select or multi-select field, with their labels. */
export function choices(f: ElicitationFieldSchema): { value: string; label: string }[] {
  if (f.oneOf) return f.oneOf.map((o) => ({ value: o.const, label: o.title ?? o.const }));
  if (f.enum) return f.enum.map((v, i) => ({ value: v, label: f.enumNames?.[i] ?? v }));
  const items = f.items;
  if (items?.anyOf) return items.anyOf.map((o) => ({ value: o.const, label: o.title ?? o.const }));
  if (items?.enum) return items.enum.map((v) => ({ value: v, label: v }));
  return [];
}

export function initialValues(schema: ElicitationFormSchema): FormValues {
  const out: FormValues = {};
  for (const [name, f] of Object.entries(schema.properties)) {
    const d = f.default;
    switch (fieldKind(f)) {
      case 'checkbox':
        out[name] = d === true;
        break;
      case 'multi':
        out[name] = Array.isArray(d) ? d.map(String) : [];
        break;
      default:
        out[name] = d === undefined || d === null ? '' : String(d);
    }
  }
  return out;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Checked = { error: string } | { value: ContentValue | undefined };
const fail = (error: string): Checked => ({ error });
const ok = (value: ContentValue | undefined): Checked => ({ value });

function checkField(f: ElicitationFieldSchema, v: FieldValue, required: boolean): Checked {
  const kind = fieldKind(f);
  if (kind === 'checkbox') return ok(v as boolean);
  if (kind === 'multi') {
    const list = v as string[];
    if (required && list.length === 0) return fail('choose at least one');
    if (f.minItems !== undefined && list.length < f.minItems) return fail(`choose at least ${f.minItems}`);
    if (f.maxItems !== undefined && list.length > f.maxItems) return fail(`choose at most ${f.maxItems}`);
    return ok(list);
  }
  const text = String(v).trim();
  if (!text) return required ? fail('required') : ok(undefined);
  if (kind === 'number') {
    const n = Number(text);
    if (!Number.isFinite(n)) return fail('must be a number');
    if (f.type === 'integer' && !Number.isInteger(n)) return fail('must be a whole number');
    if (f.minimum !== undefined && n < f.minimum) return fail(`must be at least ${f.minimum}`);
    if (f.maximum !== undefined && n > f.maximum) return fail(`must be at most ${f.maximum}`);
    return ok(n);
  }
  if (f.minLength !== undefined && text.length < f.minLength)
    return fail(`needs at least ${f.minLength} characters`);
  if (f.maxLength !== undefined && text.length > f.maxLength)
    return fail(`takes at most ${f.maxLength} characters`);
  if (f.format === 'email' && !EMAIL.test(text))
    return fail('must be an email address like name@example.com');
  if (f.format === 'uri') {
    try {
      new URL(text);
    } catch {
      return fail('must be a full address like https://example.com');
    }
  }
  if (f.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return fail('must be a date (YYYY-MM-DD)');
  if (kind === 'select' && !choices(f).some((c) => c.value === text))
    return fail('choose one of the options');
  return ok(text);
}

export type Validation =
  { ok: true; content: Record<string, ContentValue> } | { ok: false; errors: Record<string, string> };

/** Checks every field; on success, the content to send (empty optional fields left out). */
export function validateForm(schema: ElicitationFormSchema, values: FormValues): Validation {
  const content: Record<string, ContentValue> = {};
  const errors: Record<string, string> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, f] of Object.entries(schema.properties)) {
    const r = checkField(f, values[name] ?? '', required.has(name));
    if ('error' in r) errors[name] = r.error;
    else if (r.value !== undefined) content[name] = r.value;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}
