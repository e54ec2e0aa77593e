// A registry entry's ways to run (its `packages[]` and `remotes[]`) as install drafts (installDraft.ts):
// npm → `npx -y NAME@VERSION`, PyPI → `uvx NAME==VERSION`, OCI → `docker run -i --rm IMAGE`, mcpb → the
// bundle flow (bundleInstall.ts), streamable-http and sse remotes → their URL. `runtimeArguments`,
// `packageArguments`, `environmentVariables` and remote `headers` become fixed values or values the user
// is asked for (`isRequired`, `isSecret`, `default`, `choices`, `format`); `{name}` variables in a value
// or a remote's URL template too. Every identifier and fixed value is checked first (serverJson.ts): an
// option that fails a check is not offered, with the reason, and nothing of it reaches a command line.
import type { InstallInput, RunOption } from '@shared/registry';
import { MooringError } from '../errors';
import type { PackageRef } from '../safety/packageSpec';
import { inputRef, type ArgGroup, type InstallDraft, type KeyedValue } from './installDraft';
import {
  ENV_NAME,
  FLAG_NAME,
  HEADER_NAME,
  MOORING_REFERENCE,
  NPM_IDENTIFIER,
  OCI_IDENTIFIER,
  PYPI_IDENTIFIER,
  UNSAFE_IN_VALUE,
  VARIABLE_NAME,
  VERSION,
  type KeyValueInput,
  type RegistryArgument,
  type RegistryInput,
  type RegistryPackage,
  type RegistryRemote,
  type ServerJson,
} from './serverJson';

const DEFAULT_RUNTIME: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };
const NPM_REGISTRY = 'https://registry.npmjs.org';

/** What one option of an entry installs: a draft, or a bundle to fetch first. */
export type RegistryOptionPlan =
  | { kind: 'draft'; option: RunOption; draft: InstallDraft; package?: PackageRef }
  | { kind: 'bundle'; option: RunOption; url: string; sha256: string };

class Unsupported extends Error {}
const refuse = (why: string): never => {
  throw new Unsupported(why);
};

/** A fixed value from the registry: one line, no control or bidi characters, no Mooring reference. */
function fixed(value: string, what: string): string {
  if (UNSAFE_IN_VALUE.test(value)) refuse(`${what} holds control or invisible characters`);
  if (MOORING_REFERENCE.test(value))
    refuse(`${what} refers to Mooring's environment or keychain (\${env:…})`);
  return value;
}

/** Builds inputs and `${input:ID}` templates for one option. */
class InputCollector {
  readonly inputs: InstallInput[] = [];

  add(id: string, label: string, spec: RegistryInput, required: boolean): string {
    const format = ['string', 'number', 'boolean', 'filepath'].includes(spec.format ?? '')
      ? (spec.format as InstallInput['format'])
      : undefined;
    const input: InstallInput = {
      id,
      label,
      ...(spec.description ? { description: spec.description.slice(0, 400) } : {}),
      secret: spec.isSecret === true,
      required,
      ...(spec.default !== undefined ? { default: fixed(spec.default, `the default of ${label}`) } : {}),
      ...(spec.choices?.length ? { choices: spec.choices.map((c) => fixed(c, `a choice of ${label}`)) } : {}),
      ...(format ? { format } : {}),
    };
    this.inputs.push(input);
    return inputRef(id);
  }

  /**
   * The template of one value: its fixed `value` with `{var}` variables as inputs, or one input for the
   * whole value. Undefined `dropUnless` means the value is always there.
   */
  value(id: string, label: string, spec: RegistryInput): { template: string; dropUnless?: string } {
    if (spec.value !== undefined) {
      let template = fixed(spec.value, label);
      for (const [name, variable] of Object.entries(spec.variables ?? {})) {
        if (!VARIABLE_NAME.test(name)) refuse(`${label} has a variable whose name is not a plain word`);
        if (!template.includes(`{${name}}`)) continue;
        const ref = this.add(`${id}.${name}`, `${label}: ${name}`, variable, variable.isRequired !== false);
        template = template.replaceAll(`{${name}}`, ref);
      }
      return { template };
    }
    const required = spec.isRequired === true;
    const ref = this.add(id, label, spec, required);
    return required || spec.default !== undefined ? { template: ref } : { template: ref, dropUnless: id };
  }
}

function argumentGroups(args: RegistryArgument[] | undefined, where: string, c: InputCollector): ArgGroup[] {
  return (args ?? []).map((arg, i): ArgGroup => {
    if (arg.type === 'named') {
      const name = arg.name ?? '';
      if (!FLAG_NAME.test(name)) refuse(`${where} argument ${i + 1} is not a plain --flag`);
      const label = `argument ${name}`;
      if (arg.format === 'boolean' && arg.value === undefined) {
        // A switch: present or not.
        const id = `arg.${name.replace(/^-+/, '')}`;
        c.add(id, label, { ...arg, choices: ['true', 'false'] }, arg.isRequired === true);
        return { tokens: [name], dropUnless: `${id}=true` };
      }
      const v = c.value(`arg.${name.replace(/^-+/, '')}`, label, arg);
      return {
        tokens: name.startsWith('--') ? [`${name}=${v.template}`] : [name, v.template],
        ...(v.dropUnless ? { dropUnless: v.dropUnless } : {}),
      };
    }
    if (arg.type === 'positional') {
      const hint = arg.valueHint && VARIABLE_NAME.test(arg.valueHint) ? arg.valueHint : String(i + 1);
      const v = c.value(`arg.${hint}`, `argument ${hint}`, arg);
      return { tokens: [v.template], ...(v.dropUnless ? { dropUnless: v.dropUnless } : {}) };
    }
    return refuse(`${where} argument ${i + 1} has an unknown type`);
  });
}

function keyed(list: KeyValueInput[] | undefined, kind: 'env' | 'header', c: InputCollector): KeyedValue[] {
  return (list ?? []).map((kv): KeyedValue => {
    const ok = kind === 'env' ? ENV_NAME.test(kv.name) : HEADER_NAME.test(kv.name);
    if (!ok) refuse(`an ${kind === 'env' ? 'environment variable' : 'header'} name is not valid`);
    const label = kind === 'env' ? `environment variable ${kv.name}` : `header ${kv.name}`;
    const v = c.value(`${kind}.${kv.name}`, label, kv);
    return { key: kv.name, value: v.template, ...(v.dropUnless ? { dropUnless: v.dropUnless } : {}) };
  });
}

function packageDraft(pkg: RegistryPackage): { draft: InstallDraft; package?: PackageRef } {
  const type = pkg.registryType;
  const runtime = DEFAULT_RUNTIME[type];
  if (!runtime) return refuse(`registry type "${type}" is not one Mooring installs`);
  if (pkg.runtimeHint !== undefined && pkg.runtimeHint !== runtime)
    refuse(`its runtime hint "${pkg.runtimeHint}" is not how Mooring runs ${type} packages (${runtime})`);
  const transport = pkg.transport?.type ?? 'stdio';
  if (transport !== 'stdio') refuse(`it serves ${transport} itself; Mooring runs packages over stdio`);
  const version = pkg.version;
  if (version !== undefined && (!VERSION.test(version) || version === 'latest'))
    refuse('its version is not an exact version');
  const c = new InputCollector();
  const runtimeArgs = argumentGroups(pkg.runtimeArguments, 'runtime', c);
  const packageArgs = argumentGroups(pkg.packageArguments, 'package', c);
  const env = keyed(pkg.environmentVariables, 'env', c);
  const warnings: string[] = [];
  const args: ArgGroup[] = [...runtimeArgs];
  let ref: PackageRef | undefined;
  if (type === 'npm') {
    if (!NPM_IDENTIFIER.test(pkg.identifier)) refuse('its npm package name is not valid');
    if (pkg.registryBaseUrl && pkg.registryBaseUrl.replace(/\/+$/, '') !== NPM_REGISTRY)
      refuse('it names an npm registry other than registry.npmjs.org');
    if (!runtimeArgs.some((g) => g.tokens.includes('-y') || g.tokens.includes('--yes')))
      args.push({ tokens: ['-y'] });
    args.push({ tokens: [version ? `${pkg.identifier}@${version}` : pkg.identifier] });
    ref = { ecosystem: 'npm', name: pkg.identifier, ...(version ? { version } : {}) };
  } else if (type === 'pypi') {
    if (!PYPI_IDENTIFIER.test(pkg.identifier)) refuse('its PyPI package name is not valid');
    if (pkg.registryBaseUrl && !/^https:\/\/pypi\.org\/?$/.test(pkg.registryBaseUrl))
      refuse('it names a Python package index other than pypi.org');
    args.push({ tokens: [version ? `${pkg.identifier}==${version}` : pkg.identifier] });
    ref = {
      ecosystem: 'PyPI',
      name: pkg.identifier.toLowerCase().replace(/[-_.]+/g, '-'),
      ...(version ? { version } : {}),
    };
  } else {
    if (!OCI_IDENTIFIER.test(pkg.identifier)) refuse('its container image name is not valid');
    const tagged = /[:@][^/]*$/.test(pkg.identifier);
    const image = !tagged && version ? `${pkg.identifier}:${version}` : pkg.identifier;
    // `docker run` starts with `-i --rm`; each environment variable is passed by name (`-e NAME`), so its
    // value travels in docker's own environment, never on its command line.
    args.unshift({ tokens: ['run', '-i', '--rm'] });
    for (const e of env)
      args.push({ tokens: ['-e', e.key], ...(e.dropUnless ? { dropUnless: e.dropUnless } : {}) });
    args.push({ tokens: [image] });
    warnings.push('The container image is not checked against OSV; review its source before you install it.');
  }
  args.push(...packageArgs);
  return {
    draft: { transport: 'stdio', command: runtime, args, env, headers: [], inputs: c.inputs, warnings },
    ...(ref ? { package: ref } : {}),
  };
}

function remoteDraft(remote: RegistryRemote): InstallDraft {
  const transport = remote.type === 'streamable-http' ? 'http' : remote.type === 'sse' ? 'sse' : undefined;
  if (!transport) return refuse(`remote type "${remote.type}" is not one Mooring connects to`);
  const url = fixed(remote.url ?? '', 'its URL');
  const c = new InputCollector();
  let template = url;
  for (const name of new Set([...url.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!))) {
    if (!VARIABLE_NAME.test(name)) refuse('its URL has a variable whose name is not a plain word');
    const spec = remote.variables?.[name] ?? { isRequired: true };
    const ref = c.add(`url.${name}`, `URL variable ${name}`, spec, spec.isRequired !== false);
    template = template.replaceAll(`{${name}}`, ref);
  }
  const probe = template.replace(/\$\{input:[^}]+\}/g, 'x');
  let parsed: URL;
  try {
    parsed = new URL(probe);
  } catch {
    return refuse('its URL is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') refuse('its URL is not http or https');
  if (parsed.username || parsed.password) refuse('its URL carries a user name or password');
  const headers = keyed(remote.headers, 'header', c);
  return { transport, url: template, args: [], env: [], headers, inputs: c.inputs, warnings: [] };
}

function packageLabel(pkg: RegistryPackage): string {
  return `${pkg.registryType} ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ''}`;
}

type Planned = RegistryOptionPlan | { option: RunOption; error: string };

function optionPlans(server: ServerJson): Planned[] {
  const out: Planned[] = [];
  for (const pkg of server.packages ?? []) {
    const label = packageLabel(pkg);
    try {
      if (pkg.registryType === 'mcpb') {
        const url = fixed(pkg.identifier, 'its bundle URL');
        const u = new URL(url);
        if (u.protocol !== 'https:' && u.protocol !== 'http:') refuse('its bundle URL is not http or https');
        if (!pkg.fileSha256 || !/^[a-f0-9]{64}$/.test(pkg.fileSha256))
          refuse('a bundle must come with its fileSha256');
        out.push({ kind: 'bundle', option: { kind: 'mcpb', label }, url, sha256: pkg.fileSha256! });
        continue;
      }
      const { draft, package: ref } = packageDraft(pkg);
      const kind = pkg.registryType as 'npm' | 'pypi' | 'oci';
      out.push({ kind: 'draft', option: { kind, label }, draft, ...(ref ? { package: ref } : {}) });
    } catch (err) {
      if (!(err instanceof Unsupported) && !(err instanceof TypeError)) throw err;
      const why = err instanceof Unsupported ? err.message : 'its bundle URL is not a URL';
      out.push({ option: { kind: 'unsupported', label, unsupported: why }, error: why });
    }
  }
  for (const remote of server.remotes ?? []) {
    const label = `remote ${remote.url ?? ''}`;
    try {
      const draft = remoteDraft(remote);
      out.push({ kind: 'draft', option: { kind: remote.type as 'sse' | 'streamable-http', label }, draft });
    } catch (err) {
      if (!(err instanceof Unsupported)) throw err;
      out.push({ option: { kind: 'unsupported', label, unsupported: err.message }, error: err.message });
    }
  }
  return out;
}

/** The options as the search results and the consent list them. */
export function runOptions(server: ServerJson): RunOption[] {
  return optionPlans(server).map((p) => p.option);
}

/**
 * The option to install: the one asked for (1-based, in the order `runOptions` lists them), else the first
 * Mooring can use. Throws `refused` naming why each option cannot be used when none can.
 */
export function chooseOption(server: ServerJson, wanted?: number): RegistryOptionPlan {
  const plans = optionPlans(server);
  if (!plans.length)
    throw new MooringError(
      'refused',
      `${server.name} lists no package and no remote: there is nothing to install.`,
      'Look at its repository for how to run it, and add it by hand.',
    );
  if (wanted !== undefined) {
    const p = plans[wanted - 1];
    if (!p)
      throw new MooringError(
        'usage',
        `${server.name} has ${plans.length} option(s); there is no option ${wanted}.`,
      );
    if ('error' in p)
      throw new MooringError(
        'refused',
        `Option ${wanted} of ${server.name} cannot be installed: ${p.error}.`,
      );
    return p;
  }
  const usable = plans.find((p): p is RegistryOptionPlan => !('error' in p));
  if (usable) return usable;
  throw new MooringError(
    'refused',
    `Mooring cannot install ${server.name}: ${plans.map((p) => `${p.option.label}: ${(p as { error: string }).error}`).join('; ')}. Nothing was installed.`,
    'Look at its repository for another way to run it, and add it by hand if you trust it.',
  );
}
