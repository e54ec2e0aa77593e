// `mooring settings get [KEY]`, `settings set KEY VALUE`, `settings unset KEY`: settings.json from a terminal,
// by dot path (`largeResults.share`), each change checked against the file's schema before it is written
// (config/settingKeys.ts, `core.settings.set`). A value is typed the way the setting takes it: true/false, a
// number, a string, or JSON for a list or a map.
import type { Command } from 'commander';
import { knownSetting, settingKeys, settingValue, type SettingKey } from '../core/config/settingKeys';
import { MooringError } from '../core/errors';
import type { CoreRunner } from './coreRunner';
import { print, printJson, tty } from './terminalText';

function parseValue(k: SettingKey, raw: string): unknown {
  if (k.type === 'string' || k.type === 'enum') return raw;
  if (k.type === 'number') return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  if (k.type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new MooringError(
      'usage',
      `${k.key} takes JSON; "${raw}" is not JSON`,
      `e.g. mooring settings set ${k.key} '${k.type === 'array' ? '[]' : '{}'}'`,
    );
  }
}

const shown = (v: unknown) => (v === undefined ? '(not set)' : JSON.stringify(v));

export function registerSettingsCommands(program: Command, withCore: CoreRunner): void {
  const settings = program
    .command('settings')
    .description('show and change settings.json, checked before it is written');

  settings
    .command('get')
    .description('every setting and its value, or one (mooring settings get largeResults.share)')
    .argument('[key]', 'a setting, as a dot path')
    .option('--json', 'the settings (or one value) as JSON')
    .action(async (key: string | undefined, o: { json?: boolean }) =>
      withCore(
        async (core) => {
          const current = core.settings.current();
          if (key) {
            const value = settingValue(current, key);
            if (o.json) printJson({ key, value: value ?? null });
            else print(tty`${shown(value)}\n`);
            return;
          }
          if (o.json) return void printJson(current);
          for (const k of settingKeys()) print(tty`${k.key} = ${shown(settingValue(current, k.key))}\n`);
        },
        { json: o.json },
      ),
    );

  settings
    .command('set')
    .description('change one setting: mooring settings set maxToolIterations 40')
    .argument('<key>', 'a setting, as a dot path')
    .argument('<value>', 'true/false, a number, a string, or JSON for a list or a map')
    .option('--json', 'print {"ok": true, "key", "value"}')
    .action(async (key: string, raw: string, o: { json?: boolean }) =>
      withCore(
        async (core) => {
          const saved = await core.settings.set(key, parseValue(knownSetting(key), raw));
          const value = settingValue(saved, key);
          if (o.json) printJson({ ok: true, key, value });
          else print(tty`${key} = ${shown(value)}\n`);
        },
        { json: o.json },
      ),
    );

  settings
    .command('unset')
    .description('put one setting back to its default')
    .argument('<key>', 'a setting, as a dot path')
    .option('--json', 'print {"ok": true, "key", "value"}')
    .action(async (key: string, o: { json?: boolean }) =>
      withCore(
        async (core) => {
          knownSetting(key);
          const saved = await core.settings.set(key, undefined);
          const value = settingValue(saved, key);
          if (o.json) printJson({ ok: true, key, value: value ?? null });
          else print(tty`${key} = ${shown(value)}\n`);
        },
        { json: o.json },
      ),
    );
}
