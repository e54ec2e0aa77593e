// A bundle's manifest as an install draft (installDraft.ts), following the bundle specification's rules for
// `server.mcp_config`: the current platform's `platform_overrides` replace command, args or env;
// `${__dirname}` is the folder the bundle is unpacked in, `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`,
// `${DOWNLOADS}`, `${pathSeparator}` and `${/}` are the user's, and each `${user_config.KEY}` is a value the
// user is asked for (a `sensitive` one is kept in the keychain). The manifest's `server.type` names the
// runtime; a bundle that runs its own binary is installed but starts only once the user trusts it.
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import type { InstallInput } from '@shared/registry';
import { MooringError } from '../errors';
import { runtimeOf } from '../safety/commandAllowlist';
import { inputRef, type InstallDraft } from './installDraft';
import type { McpbManifest } from './mcpbBundle';
import { MOORING_REFERENCE, UNSAFE_IN_VALUE } from './serverJson';

const RUNTIMES: Record<string, string[]> = {
  node: ['node'],
  python: ['python', 'python3', 'uvx'],
  uv: ['uvx'],
};

const USER_CONFIG_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

function refuse(why: string): never {
  throw new MooringError(
    'refused',
    `This bundle cannot be installed: ${why}.`,
    'Nothing was installed. Ask the bundle’s author for a fixed one.',
  );
}

function inputsOf(manifest: McpbManifest): InstallInput[] {
  return Object.entries(manifest.user_config ?? {}).map(([key, option]): InstallInput => {
    if (!USER_CONFIG_KEY.test(key)) refuse('a user_config key is not a plain name');
    const def = option.default;
    const format =
      option.type === 'directory' ||
      option.type === 'file' ||
      option.type === 'number' ||
      option.type === 'boolean'
        ? option.type
        : 'string';
    return {
      id: `user_config.${key}`,
      label: option.title.slice(0, 100),
      description: option.description.slice(0, 400),
      secret: option.sensitive === true,
      required: option.required === true,
      ...(def !== undefined ? { default: Array.isArray(def) ? def.join(',') : String(def) } : {}),
      ...(format === 'boolean' ? { choices: ['true', 'false'] } : {}),
      format,
    };
  });
}

/** The draft to run the bundle unpacked in `dir`. */
export function bundleDraft(manifest: McpbManifest, dir: string, platform = process.platform): InstallDraft {
  const base = manifest.server.mcp_config;
  const override = (base.platform_overrides as Record<string, Partial<typeof base>> | undefined)?.[platform];
  const command = override?.command ?? base.command;
  const args = override?.args ?? base.args ?? [];
  const env = override?.env ?? base.env ?? {};
  const compat = manifest.compatibility?.platforms as string[] | undefined;
  if (compat?.length && !compat.includes(platform))
    refuse(`it runs on ${compat.join(', ')}, not on ${platform}`);

  const home = homedir();
  const vars: Record<string, string> = {
    __dirname: dir,
    HOME: home,
    DESKTOP: join(home, 'Desktop'),
    DOCUMENTS: join(home, 'Documents'),
    DOWNLOADS: join(home, 'Downloads'),
    pathSeparator: sep,
    '/': sep,
  };
  const inputs = inputsOf(manifest);
  const fill = (value: string, where: string) => {
    if (UNSAFE_IN_VALUE.test(value)) refuse(`${where} holds control or invisible characters`);
    if (MOORING_REFERENCE.test(value)) refuse(`${where} refers to Mooring's environment or keychain`);
    return value.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
      if (name in vars) return vars[name]!;
      const key = /^user_config\.(.+)$/.exec(name)?.[1];
      if (key !== undefined) {
        if (!inputs.some((i) => i.id === `user_config.${key}`))
          refuse(`${where} uses user_config.${key}, which the manifest does not declare`);
        return inputRef(`user_config.${key}`);
      }
      return whole;
    });
  };
  const warnings: string[] = [];
  const resolvedCommand = fill(command, 'its command');
  const type = manifest.server.type as string;
  const expected = RUNTIMES[type];
  if (expected && !expected.includes(runtimeOf(resolvedCommand) ?? ''))
    warnings.push(
      `The manifest says it is a ${type} server but runs "${resolvedCommand}"; Mooring starts it only if that is a runtime on your PATH, or once you trust the server.`,
    );
  if (type === 'binary')
    warnings.push(
      'It runs a program of its own, not a runtime Mooring knows: it will not start until you trust the server (mooring mcp call --trust, or the Trust switch).',
    );
  return {
    transport: 'stdio',
    command: resolvedCommand,
    args: args.map((a, i) => {
      const value = fill(a, `argument ${i + 1}`);
      const lone = /^\$\{input:([^}]+)\}$/.exec(value)?.[1];
      const optional =
        lone &&
        !inputs.find((x) => x.id === lone)?.required &&
        inputs.find((x) => x.id === lone)?.default === undefined;
      return { tokens: [value], ...(optional ? { dropUnless: lone } : {}) };
    }),
    env: Object.entries(env).map(([key, value]) => {
      const v = fill(value, `environment variable ${key}`);
      const lone = /^\$\{input:([^}]+)\}$/.exec(v)?.[1];
      const optional =
        lone &&
        !inputs.find((x) => x.id === lone)?.required &&
        inputs.find((x) => x.id === lone)?.default === undefined;
      return { key, value: v, ...(optional ? { dropUnless: lone } : {}) };
    }),
    headers: [],
    inputs,
    warnings,
  };
}
