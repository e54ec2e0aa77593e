// `core.confinement` (ARCHITECTURE.md, "The core as one object"; docs/confinement.md): what each server
// may touch and what it was refused, the one-click answers to a refusal (allow this path, allow this host),
// turning confinement on or off for a server, and the managed policy every add and start is checked
// against. The app's server card, `mooring mcp sandbox` and the consent screens all come here.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ServerConfig, ServerConfigInput } from '@shared/config';
import {
  confinementSummary,
  mergeSandbox,
  SandboxDomainSchema,
  SandboxPathSchema,
  type ConfinementView,
  type SandboxSettings,
  type SandboxViolation,
} from '@shared/confinement';
import type { ManagedPolicyView, ServerSourceKind } from '@shared/managedPolicy';
import { MooringError } from '../errors';
import type { TransportFactory } from '../mcp/transportFactory';
import { createTransport } from '../mcp/transportFactory';
import { ConfinedLauncher } from './confinedLauncher';
import { ManagedPolicyFile, policyPath, type ManagedPolicy } from './managedPolicy';
import { CREDENTIAL_FLOOR, expandPath, isUnder } from './sandboxPolicy';
import { ViolationLog } from './violationLog';

export interface ConfinementServiceDeps {
  home: string;
  env: () => NodeJS.ProcessEnv;
  /** The configured servers: read one, write one back (services/configuredServers.ts). */
  servers: {
    get(name: string): Promise<ServerConfig>;
    update(name: string, input: ServerConfigInput): Promise<ServerConfig>;
  };
  platform?: NodeJS.Platform;
}

export interface SandboxChange {
  /** Paths to add to allowWrite. */
  write?: string[];
  /** Hosts to add to allowedDomains. */
  domain?: string[];
}

export class ConfinementService {
  readonly policy: ManagedPolicyFile;
  readonly violations: ViolationLog;
  readonly launcher: ConfinedLauncher;

  constructor(private readonly deps: ConfinementServiceDeps) {
    this.policy = new ManagedPolicyFile(policyPath(deps.env(), deps.platform));
    this.violations = new ViolationLog(deps.home);
    this.launcher = new ConfinedLauncher({
      home: deps.home,
      env: deps.env,
      policy: this.policy,
      violations: this.violations,
      ...(deps.platform ? { platform: deps.platform } : {}),
    });
  }

  /** Sessions' transports with every stdio spawn going through the launcher (mcp/stdioLauncher.ts). */
  transports(inner: TransportFactory = createTransport): TransportFactory {
    return (config, hooks) => inner(config, { ...hooks, launcher: this.launcher });
  }

  /** Refuses, naming the rule, what the managed policy does not allow to be added (`how`) or started. */
  check(config: ServerConfig, how: ServerSourceKind | 'start'): void {
    this.policy.check(config, how);
  }

  policyView(): ManagedPolicyView {
    return this.policy.view();
  }

  /** The YOLO switch may be on (the managed policy may turn it off). */
  allowsYolo(): boolean {
    return this.policySafe()?.yolo !== false;
  }

  /** "Always allow" may be offered and honoured. */
  allowsAlwaysAllow(): boolean {
    return this.policySafe()?.alwaysAllow !== false;
  }

  /** The managed registry, when the policy names one. */
  registryUrl(): string | undefined {
    return this.policySafe()?.registryUrl;
  }

  /** Each server's confinement as its card shows it. */
  async views(configs: readonly ServerConfig[]): Promise<Map<string, ConfinementView>> {
    const [tools, counts] = await Promise.all([this.launcher.availability(), this.violations.counts()]);
    const required = this.policySafe()?.confinement?.required === true;
    const viewOf = (c: ServerConfig): ConfinementView => {
      const base = {
        summary: confinementSummary(c),
        violations: counts[c.name] ?? 0,
        observesFiles: tools.observesFiles,
        ...(required && c.transport === 'stdio' ? { required } : {}),
      };
      if (c.transport !== 'stdio') return { state: 'remote', ...base };
      if (!c.sandboxEnabled) return { state: 'unconfined', ...base };
      if (tools.ok) return { state: 'confined', ...base };
      return {
        state: c.runUnconfinedIfUnavailable && !required ? 'unconfined' : 'unavailable',
        ...base,
        ...(tools.reason ? { reason: tools.reason } : {}),
        ...(tools.hint ? { hint: tools.hint } : {}),
      };
    };
    return new Map(configs.map((c) => [c.name, viewOf(c)]));
  }

  /** `mooring mcp sandbox NAME --show` and the card's panel: the block, the state and what was refused. */
  async show(name: string): Promise<{
    name: string;
    sandboxEnabled: boolean;
    sandbox: SandboxSettings;
    view: ConfinementView;
    violations: SandboxViolation[];
  }> {
    const config = await this.deps.servers.get(name);
    const view = (await this.views([config])).get(name)!;
    return {
      name,
      sandboxEnabled: config.sandboxEnabled === true,
      sandbox: config.sandbox ?? {},
      view,
      violations: await this.violations.list(name),
    };
  }

  listViolations(name: string): Promise<SandboxViolation[]> {
    return this.violations.list(name);
  }

  /**
   * Widens what a server may write or reach (the one-click "allow" and `--allow-write`/`--allow-domain`):
   * checked like a hand edit, refused where the floor or the managed policy forbids it; the running server
   * restarts with it. A file the server tried to create is made (empty), so the sandbox can hand it over.
   */
  async allow(name: string, change: SandboxChange): Promise<SandboxSettings> {
    const config = await this.deps.servers.get(name);
    const write = (change.write ?? []).map((p) => parseWith(SandboxPathSchema, p, '--allow-write'));
    const domain = (change.domain ?? []).map((d) => parseWith(SandboxDomainSchema, d, '--allow-domain'));
    const home = this.deps.env().HOME ?? this.deps.home;
    const managed = this.policySafe()?.confinement;
    const fixed = [...CREDENTIAL_FLOOR, ...(managed?.denyRead ?? []), ...(managed?.denyWrite ?? [])].map(
      (p) => expandPath(p, home),
    );
    for (const p of write) {
      const abs = expandPath(p, home);
      if (isUnder(abs, fixed) || isUnder(abs, [this.deps.home]))
        throw new MooringError(
          'refused',
          `No confined server may write ${p}: it holds credentials${managed ? ', or the managed policy keeps it closed' : ''}, or Mooring's own files.`,
        );
    }
    if (managed?.allowedDomainsOnly) {
      const outside = domain.filter((d) => !(managed.allowedDomains ?? []).includes(d));
      if (outside.length)
        throw new MooringError(
          'refused',
          `The managed policy lets confined servers reach only ${(managed.allowedDomains ?? []).join(', ') || 'no host'}; ${outside.join(', ')} may not be allowed.`,
        );
    }
    const recorded = await this.violations.list(name);
    for (const p of write) {
      const abs = expandPath(p, home);
      const triedFile = recorded.some(
        (v) => v.kind === 'write' && v.target === abs && v.operation === 'open for writing',
      );
      if (triedFile && !existsSync(abs) && existsSync(dirname(abs)))
        writeFileSync(abs, '', { mode: 0o600, flag: 'wx' });
    }
    const sandbox = mergeSandbox(config.sandbox, {
      ...(write.length ? { filesystem: { allowWrite: write } } : {}),
      ...(domain.length ? { network: { allowedDomains: domain } } : {}),
    });
    await this.deps.servers.update(name, { ...config, sandbox });
    const writes = write.map((p) => expandPath(p, home));
    await this.violations.forget(
      name,
      (v) =>
        (v.kind === 'write' && isUnder(v.target, writes)) ||
        (v.kind === 'network' && v.allow?.domain !== undefined && domain.includes(v.allow.domain)),
    );
    return sandbox;
  }

  /** The "Run confined" switch (`--on`/`--off`); off is refused where the managed policy requires it. */
  async setConfined(name: string, on: boolean): Promise<ServerConfig> {
    const config = await this.deps.servers.get(name);
    if (config.transport !== 'stdio')
      throw new MooringError(
        'usage',
        `"${name}" is a remote server: it runs elsewhere and cannot be confined here.`,
      );
    if (!on && this.policySafe()?.confinement?.required)
      throw new MooringError(
        'refused',
        'The managed policy requires every local server to run confined (confinement.required).',
      );
    return this.deps.servers.update(name, { ...config, sandboxEnabled: on });
  }

  /** Where confinement cannot run, start this server unconfined instead of refusing it (the user's choice). */
  async runUnconfinedWhereUnavailable(name: string, on: boolean): Promise<ServerConfig> {
    const config = await this.deps.servers.get(name);
    if (on && this.policySafe()?.confinement?.required)
      throw new MooringError(
        'refused',
        'The managed policy requires every local server to run confined (confinement.required).',
      );
    const { runUnconfinedIfUnavailable: _old, ...rest } = config;
    return this.deps.servers.update(name, on ? { ...rest, runUnconfinedIfUnavailable: true } : rest);
  }

  /** A removed server's refused accesses go with it. */
  forgetServer(name: string): Promise<void> {
    return this.violations.forget(name);
  }

  onViolation(listener: (v: SandboxViolation) => void): () => void {
    this.violations.on('recorded', listener);
    return () => void this.violations.off('recorded', listener);
  }

  close(): Promise<void> {
    return this.violations.close();
  }

  /** The policy, or undefined when there is none or it cannot be read (adds and starts refuse that case). */
  private policySafe(): ManagedPolicy | undefined {
    try {
      return this.policy.current();
    } catch {
      // A policy file that cannot be read keeps what it could have turned off, off.
      return { yolo: false, alwaysAllow: false };
    }
  }
}

function parseWith<T>(
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
  value: string,
  flag: string,
): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new MooringError('usage', `${flag} ${value}: ${r.error.issues[0]?.message ?? 'invalid'}`);
  return r.data;
}
