// settings.json by key (`mooring settings get|set|unset`): every setting the schema knows as a dot path
// (`largeResults.share`), read from the current settings, and a change checked against the one schema the
// file is written with (shared/settings.ts) before anything is written.
import { SettingsSchema, type Settings, type SettingsInput } from '@shared/settings';
import type { z } from 'zod';
import { MooringError } from '../errors';

export interface SettingKey {
  key: string;
  /** The schema's kind of value: boolean, number, string, enum, record, array. */
  type: string;
  /** An enum's values. */
  values?: string[];
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  out?: z.ZodType;
  entries?: Record<string, string>;
};
const defOf = (t: z.ZodType): Def => (t as unknown as { _zod: { def: Def } })._zod.def;

function walk(t: z.ZodType, path: string[], out: SettingKey[]): void {
  const def = defOf(t);
  if (def.type === 'object' && def.shape) {
    for (const [k, v] of Object.entries(def.shape)) walk(v, [...path, k], out);
    return;
  }
  if (def.innerType) return walk(def.innerType, path, out); // default, prefault, optional
  if (def.type === 'pipe' && def.out) return walk(def.out, path, out); // a preprocessed value
  out.push({
    key: path.join('.'),
    type: def.type,
    ...(def.type === 'enum' && def.entries ? { values: Object.values(def.entries) } : {}),
  });
}

/** Every setting, in the schema's order. */
export function settingKeys(): SettingKey[] {
  const out: SettingKey[] = [];
  walk(SettingsSchema, [], out);
  return out;
}

/** One setting by its key; a key no setting has is a `usage` error. */
export function knownSetting(key: string): SettingKey {
  const found = settingKeys().find((k) => k.key === key);
  if (!found)
    throw new MooringError(
      'usage',
      `There is no setting "${key}"`,
      'See every setting and its value with: mooring settings get',
    );
  return found;
}

/** A setting's current value (undefined: an optional setting that is not set). */
export function settingValue(settings: Settings, key: string): unknown {
  knownSetting(key);
  return key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], settings);
}

/**
 * The settings with `key` set to `value`, or left out (`undefined`: back to its default), checked against
 * the schema: a value it refuses is a `usage` error naming the setting and what it takes.
 */
export function withSetting(settings: Settings, key: string, value: unknown): SettingsInput {
  const k = knownSetting(key);
  const next = structuredClone(settings) as Record<string, unknown>;
  const path = key.split('.');
  let at = next;
  for (const p of path.slice(0, -1)) at = (at[p] ??= {}) as Record<string, unknown>;
  if (value === undefined) delete at[path.at(-1)!];
  else at[path.at(-1)!] = value;
  const checked = SettingsSchema.safeParse(next);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new MooringError(
      'usage',
      `${key} cannot be ${JSON.stringify(value)}: ${issue?.message ?? 'not valid'}`,
      k.values
        ? `It takes one of: ${k.values.join(', ')}.`
        : `It takes a ${k.type}${k.type === 'record' || k.type === 'array' ? ' (as JSON)' : ''}.`,
    );
  }
  return next as SettingsInput;
}
