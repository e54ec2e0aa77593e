// The managed policy (docs/managed-policy.md): a file at a system path the user cannot write, put there by
// whoever manages the machine. It says which servers may be added and started (by command, URL pattern,
// registry name or server name), whether servers come from the registry only, whether every local server
// must run confined (with a floor of denied paths and allowed hosts), whether "always allow" and YOLO are
// off, and which registry to use. Every way of adding or starting a server asks `check`, which names the
// rule that refused. A policy file that cannot be read is not ignored: nothing is added or started until
// it is fixed.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SandboxDomainSchema, SandboxPathSchema } from '@shared/confinement';
import type { ServerConfig } from '@shared/config';
import type { ManagedPolicyView, ServerSourceKind } from '@shared/managedPolicy';
import { MooringError } from '../errors';

const Matcher = z.union([
  z.object({ serverName: z.string().min(1) }).strict(),
  z.object({ command: z.string().min(1) }).strict(),
  z.object({ serverCommand: z.array(z.string()).min(1) }).strict(),
  z.object({ serverUrl: z.string().min(1) }).strict(),
  z.object({ registryName: z.string().min(1) }).strict(),
]);
type Matcher = z.infer<typeof Matcher>;

export const ManagedPolicySchema = z
  .object({
    /** Who manages it, shown wherever a rule applies ("Example Corp IT, it@example.com"). */
    managedBy: z.string().max(200).optional(),
    allowedServers: z.array(Matcher).optional(),
    deniedServers: z.array(Matcher).optional(),
    registryOnly: z.boolean().optional(),
    registryUrl: z.string().url().optional(),
    confinement: z
      .object({
        required: z.boolean().optional(),
        denyRead: z.array(SandboxPathSchema).optional(),
        denyWrite: z.array(SandboxPathSchema).optional(),
        allowedDomains: z.array(SandboxDomainSchema).optional(),
        /** A server's own allowedDomains count only where this list has them too. */
        allowedDomainsOnly: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /** false: no "always allow" is offered or honoured. */
    alwaysAllow: z.boolean().optional(),
    /** false: the YOLO switch stays off. */
    yolo: z.boolean().optional(),
  })
  .strict();
export type ManagedPolicy = z.infer<typeof ManagedPolicySchema>;

/** Where the policy file is on each platform; MOORING_POLICY_FILE names another (tests, packaging). */
export function policyPath(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.MOORING_POLICY_FILE) return env.MOORING_POLICY_FILE;
  if (platform === 'darwin') return '/Library/Application Support/Mooring/policy.json';
  if (platform === 'win32') return join(env.ProgramData ?? 'C:\\ProgramData', 'Mooring', 'policy.json');
  return '/etc/mooring/policy.json';
}

type Loaded = { ok: true; policy: ManagedPolicy | undefined } | { ok: false; error: string };

export class ManagedPolicyFile {
  private cached?: { stamp: string; loaded: Loaded };

  constructor(readonly file: string) {}

  /** The policy now (read again when the file changed); undefined when there is none. */
  load(): Loaded {
    let stamp = 'missing';
    try {
      const s = statSync(this.file);
      stamp = `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') stamp = `error:${(e as Error).message}`;
    }
    if (this.cached?.stamp === stamp) return this.cached.loaded;
    const loaded = readPolicy(this.file, stamp);
    this.cached = { stamp, loaded };
    return loaded;
  }

  /** The policy, or a MooringError when the file is there and wrong (nothing runs until it is fixed). */
  current(): ManagedPolicy | undefined {
    const l = this.load();
    if (!l.ok)
      throw new MooringError(
        'refused',
        `The managed policy at ${this.file} cannot be used: ${l.error}. Nothing is added or started until it is fixed.`,
        'Ask whoever manages this computer to correct it.',
      );
    return l.policy;
  }

  /**
   * Refuses (a `refused` MooringError naming the rule) a server the policy does not allow: to add (`how` says
   * how it came) or to start.
   */
  check(config: ServerConfig, how: ServerSourceKind | 'start'): void {
    const p = this.current();
    if (!p) return;
    const by = p.managedBy ? ` (managed by ${p.managedBy})` : '';
    const refuse = (rule: string, why: string, hint: string): never => {
      throw new MooringError(
        'refused',
        `The managed policy${by} refuses "${config.name}": ${rule} — ${why}.`,
        hint,
      );
    };
    const denied = (p.deniedServers ?? []).findIndex((m) => matches(m, config));
    if (denied >= 0)
      refuse(
        `deniedServers[${denied}] ${JSON.stringify(p.deniedServers![denied])}`,
        'this server matches it',
        'Pick another server; this policy is set by whoever manages this computer.',
      );
    if (p.allowedServers && !p.allowedServers.some((m) => matches(m, config)))
      refuse(
        'allowedServers',
        'this server matches none of its entries',
        'Only the servers it lists may be added.',
      );
    if (p.registryOnly) {
      const fromRegistry = how === 'start' ? config.origin?.kind === 'registry' : how === 'registry';
      if (!fromRegistry)
        refuse(
          'registryOnly',
          'servers are installed from the registry only',
          'Find it in Browse (mooring mcp search).',
        );
    }
    if (p.confinement?.required && config.transport === 'stdio' && !config.sandboxEnabled)
      refuse(
        'confinement.required',
        'every local server must run confined and this one does not',
        `Turn on "Run confined" for it (mooring mcp sandbox ${config.name} --on), or add it with --confined.`,
      );
  }

  /** What the app shows under "Managed by your organisation". */
  view(): ManagedPolicyView {
    const l = this.load();
    if (!l.ok) return { file: this.file, active: true, error: l.error, rules: [] };
    if (!l.policy) return { file: this.file, active: false, rules: [] };
    const p = l.policy;
    const rules: string[] = [];
    if (p.allowedServers)
      rules.push(`Only these servers may be added: ${p.allowedServers.map(describe).join('; ')}.`);
    if (p.deniedServers?.length)
      rules.push(`These servers may not be added: ${p.deniedServers.map(describe).join('; ')}.`);
    if (p.registryOnly) rules.push('Servers are installed from the registry only.');
    if (p.registryUrl) rules.push(`The registry is ${p.registryUrl}.`);
    const c = p.confinement;
    if (c?.required) rules.push('Every local server runs confined.');
    if (c?.denyRead?.length) rules.push(`No confined server may read ${c.denyRead.join(', ')}.`);
    if (c?.denyWrite?.length) rules.push(`No confined server may write ${c.denyWrite.join(', ')}.`);
    if (c?.allowedDomains?.length)
      rules.push(
        `${c.allowedDomainsOnly ? 'Confined servers reach only' : 'Every confined server may reach'} ${c.allowedDomains.join(', ')}.`,
      );
    if (p.alwaysAllow === false) rules.push('"Always allow" is off: each call is approved on its own.');
    if (p.yolo === false) rules.push('YOLO mode is off.');
    const locks = {
      ...(p.yolo === false ? { yolo: false } : {}),
      ...(p.alwaysAllow === false ? { alwaysAllow: false } : {}),
      ...(c?.required ? { confinementRequired: true } : {}),
      ...(p.registryUrl ? { registryUrl: p.registryUrl } : {}),
    };
    return {
      file: this.file,
      active: true,
      ...(p.managedBy ? { managedBy: p.managedBy } : {}),
      rules,
      locks,
    };
  }
}

function readPolicy(file: string, stamp: string): Loaded {
  if (stamp === 'missing') return { ok: true, policy: undefined };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON (${(e as Error).message})` };
  }
  const r = ManagedPolicySchema.safeParse(json);
  if (!r.success)
    return {
      ok: false,
      error: r.error.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`).join('; '),
    };
  return { ok: true, policy: r.data };
}

const describe = (m: Matcher) =>
  'serverName' in m
    ? `named ${m.serverName}`
    : 'command' in m
      ? `command ${m.command}`
      : 'serverCommand' in m
        ? `command line ${m.serverCommand.join(' ')}`
        : 'serverUrl' in m
          ? `URL ${m.serverUrl}`
          : `registry name ${m.registryName}`;

/** `*` matches any run of characters. */
function glob(pattern: string, value: string): boolean {
  const re = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${re}$`, 'i').test(value);
}

/** A URL pattern: a `*` in the scheme and host part stays within it (it never crosses a `/`, `@`, `?` or `#`). */
function urlGlob(pattern: string, url: string): boolean {
  const start = pattern.indexOf('://') + 3;
  const end = [...pattern.slice(start)].findIndex((ch) => '/?#'.includes(ch));
  const authorityEnd = end < 0 ? pattern.length : start + end;
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') re += i < authorityEnd ? '[^/@?#\\\\]*' : '.*';
    else re += ch.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i').test(url);
}

function matches(m: Matcher, c: ServerConfig): boolean {
  if ('serverName' in m) return glob(m.serverName, c.name);
  if ('serverUrl' in m) return c.url !== undefined && urlGlob(m.serverUrl, c.url);
  if ('registryName' in m) return c.origin?.name !== undefined && glob(m.registryName, c.origin.name);
  if (!c.command) return false;
  if ('command' in m) {
    const base = c.command
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(exe|cmd|bat)$/i, '');
    return glob(m.command, base) || glob(m.command, c.command);
  }
  const line = [c.command, ...c.args];
  return line.length === m.serverCommand.length && m.serverCommand.every((p, i) => glob(p, line[i]!));
}
