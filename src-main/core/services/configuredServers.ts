// The configured-servers service: every change to mcp_servers.json the app or the CLI can make, each
// one method that keeps the file, the keychain, the quarantine and the live sessions in step (add, edit,
// remove, enable, the tool toggle, the default safe set, import, test, refresh, logs). Routers and
// commands call these; none writes the file itself.
import type { ServerConfig, ServerConfigInput } from '@shared/config';
import { confinementSummary, type ConfinementView } from '@shared/confinement';
import type { ServerSourceKind } from '@shared/managedPolicy';
import type { LogLine, SessionStatus } from '@shared/session';
import type { ServerRow } from '@shared/wire';
import type { ToolService } from '../calls/toolService';
import type { ImportDropped, ImportGrant } from '@shared/importConsent';
import { FORMAT_NAMES } from '../config/clientFormats';
import { importGrants } from '../config/importConsent';
import { parseImport, type ImportResult } from '../config/importFormats';
import type { ServerManager } from '../config/serverManager';
import { parseServerInput } from '../config/serversStore';
import { MooringError } from '../errors';
import { testConnection, type ConnectionTestResult } from '../mcp/connectionTest';
import type { PoolActorOptions, SessionPool } from '../mcp/sessionPool';
import { describeCommandLine } from '../safety/commandAllowlist';
import { KEYCHAIN_REF } from '../secrets/serverSecrets';
import { describeWorkspaceErrors, effectiveServers } from '../workspace/workspaceServers';
import { SafeSetApplier, type SafeDefaults, type SafeSetMarks } from './safeSet';
import type { WorkspaceScan } from '../workspace/workspaceTypes';

export type { SafeDefaults, SafeSetMarks };

export interface ConfiguredServersDeps {
  manager: ServerManager;
  safeSet: SafeSetMarks;
  pool: SessionPool;
  tools: Pick<ToolService, 'invalidate' | 'release' | 'tokenCostByServer'>;
  /** The options of a throwaway session (Test): the same checks and guarded fetch as a real start. */
  testSession: PoolActorOptions;
  /** Forgets a server's sign-in (its tokens in the keychain) when the server is removed. */
  forgetSignIn: (name: string) => Promise<void>;
  /** Deletes what an install put on disk for a server (a bundle's folder) when the server is removed. */
  removeInstalledFiles?: (name: string) => Promise<void>;
  /** Servers for this process only (MOORING_MCP_SERVER_* quick config); never written. */
  extraServers: ServerConfig[];
  /** The project folder of this process (CLI --workspace): its approved servers join or override. */
  workspace?: string;
  scanWorkspace: (dir: string) => Promise<WorkspaceScan>;
  log: (line: LogLine) => void;
  /** The watched file changed: a UI showing the list (or the file's error) reads it again. */
  onFileChange?: (ok: boolean) => void;
  /** A server's own icon, checked and as a data: URI (MooringCore.iconOf), if it has one. */
  serverIcon?: (name: string) => string | undefined;
  /** Refuses, naming the rule, a server the managed policy does not allow to be added (confine/managedPolicy.ts). */
  admit?: (config: ServerConfig, how: ServerSourceKind) => void;
  /** Each server's confinement for its card (confine/confinementService.ts). */
  confinement?: (configs: ServerConfig[]) => Promise<Map<string, ConfinementView>>;
}

export interface AddOptions {
  /** Start the sessions now (default true); the CLI's `mcp add` only writes. */
  start?: boolean;
  /**
   * The default safe set (default true): read-only tools on, destructive ones off, applied on the first
   * connect. False only on the user's explicit request (`mooring mcp add --all-tools`).
   */
  safeDefaults?: boolean;
  /** Values of its `${input:ID}` references (an install's secret arguments), kept in the keychain. */
  inputValues?: Readonly<Record<string, string>>;
  /** How it came (the managed policy's registryOnly lets only `registry` through); default `form`. */
  source?: ServerSourceKind;
}

export interface ImportRequest {
  text: string;
  fileName: string;
  /** Only these servers of the file (the ones the user consented to); default every one. */
  names?: string[];
  /** Replace servers of the same name instead of refusing the import. */
  replaceExisting?: boolean;
  /** Values for the file's VS Code inputs (`${input:ID}`), kept in the keychain. */
  inputValues?: Record<string, string>;
  /** The default safe set (default true); false only on the user's request (`mcp import --all-tools`). */
  safeDefaults?: boolean;
}

/** One server of a file as the consent shows it (README, "Safety"; config/importConsent.ts). */
export interface ImportPreviewServer {
  config: ServerConfig;
  commandLine: string;
  exists: boolean;
  /** What it may do beyond its command line or URL: working directory, env and header names, policy. */
  grants: ImportGrant[];
  /** Settings the file gave it that an import never carries. */
  dropped: ImportDropped[];
  /** What it will be able to write and reach, or that it runs unconfined (shared/confinement.ts). */
  confinement: string;
}

export interface ImportPreview extends Pick<ImportResult, 'format' | 'renamed' | 'warnings' | 'inputs'> {
  /** What the file is, for a person: "Goose's config" (clientFormats.ts). */
  formatName: string;
  servers: ImportPreviewServer[];
  /**
   * Set when some servers have secrets to keep and no keychain is reachable: their names and fields, and
   * the keychain's own reason (details for whoever asks; the consent names the servers and what to do).
   */
  missingKeychain?: { reason: string; servers: Record<string, string[]> };
}

export class ConfiguredServers {
  private stopWatch?: () => void;
  /** Every new server's default safe set, applied on its first connect. */
  private readonly safeSet: SafeSetApplier;
  /** Set by the first full `sync`: this process runs its servers, so changes start and stop sessions. */
  private live = false;

  constructor(private readonly deps: ConfiguredServersDeps) {
    this.safeSet = new SafeSetApplier({
      marks: deps.safeSet,
      pool: deps.pool,
      exclude: async (name, tools) => {
        const more = (list: string[]) => [...new Set([...list, ...tools])];
        await this.change(name, (c) => ({ ...c, excludeTools: more(c.excludeTools) }));
        // A process that only started this server (the CLI's startOnly) does not follow the file: its
        // running session takes the filter in place all the same.
        const actor = deps.pool.get(name);
        if (actor && !this.live) {
          actor.reconfigure({ ...actor.config, excludeTools: more(actor.config.excludeTools) });
          deps.tools.invalidate();
        }
      },
      log: deps.log,
    });
  }

  /**
   * Every server this process runs: the file's, then the extra (quick config) ones, then — with a
   * workspace — its approved servers joining or overriding those. A broken workspace file is logged
   * with its location; the global servers keep working.
   */
  async configs(): Promise<ServerConfig[]> {
    const fromFile = await this.deps.manager.store.list();
    const extra = this.deps.extraServers;
    const clash = extra.find((e) => fromFile.some((f) => f.name === e.name));
    if (clash)
      throw new MooringError(
        'usage',
        `The quick-config server "${clash.name}" (MOORING_MCP_SERVER_*) has the name of a server in mcp_servers.json`,
        `Rename or remove the "${clash.name}" server in the file, or unset MOORING_MCP_SERVER_STDIO / MOORING_MCP_SERVER_URL.`,
      );
    const global = [...fromFile, ...extra];
    if (!this.deps.workspace) return global;
    const eff = effectiveServers(global, await this.deps.scanWorkspace(this.deps.workspace));
    for (const line of describeWorkspaceErrors(eff.errors))
      this.deps.log({ server: '*', at: Date.now(), source: 'host', level: 'error', text: line });
    for (const p of eff.pending)
      this.deps.log({
        server: p.name,
        at: Date.now(),
        source: 'host',
        level: 'notice',
        text: `workspace server "${p.name}" from ${p.source} is not approved (${p.status}); it does not run`,
      });
    return eff.servers;
  }

  /** One configured server as written in the file ("<keychain>" where a secret is); `not_found` if none. */
  get(name: string): Promise<ServerConfig> {
    return this.deps.manager.store.get(name);
  }

  /** The servers with secrets masked, for `mooring mcp list`. */
  listMasked(): Promise<ServerConfig[]> {
    return this.deps.manager.listMasked();
  }

  /** The Servers screen: each server with its live state, token cost and command line. */
  async rows(): Promise<ServerRow[]> {
    const configs = await this.configs();
    const statuses = new Map(this.statuses().map((s) => [s.name, s]));
    const costs = this.deps.tools.tokenCostByServer();
    const confinement = await this.deps.confinement?.(configs);
    return configs.map((config) => {
      const icon = this.deps.serverIcon?.(config.name);
      const confined = confinement?.get(config.name);
      return {
        config,
        ...(confined ? { confinement: confined } : {}),
        status: statuses.get(config.name) ?? null,
        tokenCost: costs[config.name] ?? 0,
        commandLine: describeCommandLine(config),
        ...(icon ? { icon } : {}),
      };
    });
  }

  statuses(): SessionStatus[] {
    return this.deps.pool.statuses();
  }

  logs(name: string): LogLine[] {
    return this.deps.pool.get(name)?.logs.toArray() ?? [];
  }

  // ---- sessions --------------------------------------------------------------------------------

  /**
   * Brings the sessions in line with the configs, and waits for the safe sets the new connections started,
   * so nothing runs with a destructive tool the safe set is about to turn off. From then on every change
   * here starts and stops sessions too.
   */
  async sync(): Promise<void> {
    this.live = true;
    await this.syncSessions();
    await this.safeSet.settled();
  }

  private async syncSessions(): Promise<void> {
    await this.deps.pool.sync(await this.configs());
  }

  /**
   * After a change: the sessions follow once this process runs its servers (the app, browser mode,
   * `serve`). A CLI command that only edits the file (`mcp remove`, `mcp import`, `mcp trust`) starts
   * nothing.
   */
  private async follow(): Promise<void> {
    if (this.live) await this.sync();
  }

  /**
   * Starts just these servers (the CLI connects only what a command needs). With `trustForThisRun`
   * (`mooring mcp call --trust`), their commands may be outside the allowlist in this process only;
   * nothing is written.
   */
  async startOnly(names: string[], opts: { trustForThisRun?: boolean } = {}): Promise<void> {
    const all = await this.configs();
    const missing = names.filter((n) => !all.some((c) => c.name === n));
    if (missing.length)
      throw new MooringError(
        'not_found',
        `No server named ${missing.map((m) => `"${m}"`).join(', ')}`,
        'List the servers with: mooring mcp list',
      );
    await this.deps.pool.sync(
      all
        .filter((c) => names.includes(c.name))
        .map((c) => ({ ...c, enabled: true, ...(opts.trustForThisRun ? { trust: true } : {}) })),
    );
    await this.safeSet.settled();
  }

  /** Follows edits of mcp_servers.json (by hand, or by another process) until `close`. */
  async watch(): Promise<void> {
    if (this.stopWatch) return;
    this.stopWatch = await this.deps.manager.store.watch((change) => {
      this.deps.onFileChange?.(change.ok);
      if (change.ok) void this.sync();
      else
        this.deps.log({
          server: '*',
          at: Date.now(),
          source: 'host',
          level: 'error',
          text: change.error.message,
        });
    });
  }

  async refresh(name: string): Promise<SessionStatus | null> {
    const actor = this.running(name);
    await actor.refreshTools();
    return this.statuses().find((s) => s.name === name) ?? null;
  }

  /** A fresh session (Retry on a failed server, after the user fixed what made it fail). */
  async restart(name: string): Promise<SessionStatus | null> {
    this.running(name);
    await this.deps.pool.restart(name);
    await this.safeSet.settled();
    return this.statuses().find((s) => s.name === name) ?? null;
  }

  /** Records (or stops recording) the server's JSON-RPC traffic in its log. */
  setTracing(name: string, on: boolean): { on: boolean } {
    this.running(name).setTracing(on);
    return { on };
  }

  tracing(name: string): { on: boolean } {
    return { on: this.deps.pool.get(name)?.isTracing ?? false };
  }

  private running(name: string) {
    const actor = this.deps.pool.get(name);
    if (!actor)
      throw new MooringError(
        'not_found',
        `"${name}" is not running`,
        'Enable it on the Servers screen (or mooring mcp list shows whether it exists).',
      );
    return actor;
  }

  // ---- changes ---------------------------------------------------------------------------------

  /**
   * Validates, moves secret values into the keychain, writes the file atomically, then (unless `start`
   * is false) syncs the sessions. Every way of adding a server comes here or to `import` (the form, the
   * JSON view, an import, an install link, `mooring mcp add`), so every new server gets the default safe
   * set: read-only tools on, destructive ones off, applied when it first connects and said in the result.
   */
  async add(
    input: ServerConfigInput,
    opts: AddOptions = {},
  ): Promise<ServerConfig & { safeDefaults: SafeDefaults }> {
    this.deps.admit?.(parseServerInput(input), opts.source ?? 'form');
    const saved = await this.deps.manager.add(
      input,
      opts.inputValues ? { inputValues: opts.inputValues } : {},
    );
    if (opts.safeDefaults !== false) {
      await this.safeSet.expect([saved.name]);
    }
    if (opts.start !== false) await this.sync();
    const safeDefaults =
      opts.safeDefaults === false ? { disabledCount: 0 } : await this.safeSet.outcome(saved.name);
    return { ...saved, safeDefaults };
  }

  async update(name: string, input: ServerConfigInput): Promise<ServerConfig> {
    const saved = await this.deps.manager.update(name, input);
    await this.follow();
    return saved;
  }

  /** Removes the server, its keychain secrets, its sign-in and what its install unpacked. */
  async remove(name: string): Promise<void> {
    await this.deps.forgetSignIn(name).catch(() => undefined);
    await this.deps.manager.remove(name);
    await this.deps.removeInstalledFiles?.(name);
    await this.follow();
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.deps.manager.store.setEnabled(name, enabled);
    await this.follow();
  }

  /** A server's approval policy; the session takes it in place (no restart). */
  async setPolicy(name: string, policy: ServerConfig['policy']): Promise<void> {
    await this.change(name, (c) => ({ ...c, policy }));
  }

  /**
   * `mooring mcp trust NAME`: this server's command may run even if it is outside the allowlist, from now
   * on (an import never sets this; the user does, one server at a time).
   */
  async trust(name: string, trusted = true): Promise<ServerConfig> {
    await this.change(name, (c) => ({ ...c, trust: trusted }));
    return this.get(name);
  }

  /**
   * The tool toggle (Tool selection, `includeTools`/`excludeTools`): enabling a tool also ends its
   * quarantine, so a tool that arrived through list_changed runs once the user turns it on.
   */
  async setToolEnabled(server: string, tool: string, enabled: boolean): Promise<void> {
    if (enabled) this.deps.tools.release(server, tool);
    await this.change(server, (c) => {
      const exclude = c.excludeTools.filter((t) => t !== tool);
      if (!enabled) exclude.push(tool);
      const include = c.includeTools
        ? enabled
          ? [...new Set([...c.includeTools, tool])]
          : c.includeTools.filter((t) => t !== tool)
        : undefined;
      return { ...c, excludeTools: exclude, ...(include ? { includeTools: include } : {}) };
    });
  }

  // ---- import ----------------------------------------------------------------------------------

  /**
   * What a Claude Desktop, Cursor, VS Code or Mooring file would add, for consent: each command line,
   * what else it grants, and what the file set that an import never carries. The app and
   * `mooring mcp import` both show this.
   */
  async previewImport(text: string, fileName: string): Promise<ImportPreview> {
    const parsed = parseImport(text, { fileName });
    const existing = new Set((await this.configs()).map((s) => s.name));
    const missingKeychain = await this.deps.manager.missingKeychain(parsed.servers);
    return {
      ...(missingKeychain ? { missingKeychain } : {}),
      format: parsed.format,
      formatName: FORMAT_NAMES[parsed.format],
      renamed: parsed.renamed,
      warnings: parsed.warnings,
      inputs: parsed.inputs,
      servers: parsed.servers.map((config) => ({
        config,
        commandLine: describeCommandLine(config),
        exists: existing.has(config.name),
        grants: importGrants(config),
        dropped: parsed.dropped[config.name] ?? [],
        confinement: confinementSummary(config),
      })),
    };
  }

  /**
   * Adds the consented servers of a file in one atomic write (all or nothing), secret-looking values to
   * the keychain, without the settings an import never carries. In the app the sessions follow (each
   * start passes the allowlist: an imported server is never trusted, so a command outside it is refused
   * before it spawns); `mooring mcp import` starts nothing. The app and the CLI both come here.
   */
  async import(request: ImportRequest): Promise<{
    added: string[];
    replaced: string[];
    /** Each imported server's default safe set: what it turned off, or that it waits for a first connect. */
    safeDefaults: Record<string, SafeDefaults>;
  }> {
    if (this.deps.admit) {
      const parsed = parseImport(request.text, { fileName: request.fileName }).servers;
      for (const c of parsed.filter((c) => !request.names || request.names.includes(c.name)))
        this.deps.admit(c, 'import');
    }
    const merged = await this.deps.manager.import(request.text, {
      fileName: request.fileName,
      ...(request.names ? { only: request.names } : {}),
      ...(request.replaceExisting ? { replaceExisting: true } : {}),
      ...(request.inputValues ? { inputValues: request.inputValues } : {}),
    });
    const names = [...merged.added, ...merged.replaced];
    if (request.safeDefaults === false) {
      await this.follow();
      return { added: merged.added, replaced: merged.replaced, safeDefaults: {} };
    }
    await this.safeSet.expect(names);
    await this.follow();
    // Each outcome is taken at once (the runs of this sync are read before anything else awaits).
    const outcomes = await Promise.all(names.map((name) => this.safeSet.outcome(name)));
    const safeDefaults = Object.fromEntries(names.map((name, i) => [name, outcomes[i]!]));
    return { added: merged.added, replaced: merged.replaced, safeDefaults };
  }

  // ---- test ------------------------------------------------------------------------------------

  /**
   * A handshake and tools/list on a throwaway session, through the same safety checks as a real start.
   * Secret values typed into the form are used for this test only; nothing is written. A "<keychain>"
   * value (of a saved server) is read from the keychain.
   */
  test(input: ServerConfigInput): Promise<ConnectionTestResult> {
    const config = parseServerInput(input);
    const stored = (values: Record<string, string>, keys: string[]) =>
      keys.filter((k) => values[k] === KEYCHAIN_REF);
    return testConnection(
      {
        ...config,
        secretEnv: stored(config.env, config.secretEnv),
        secretHeaders: stored(config.headers, config.secretHeaders),
      },
      this.deps.testSession,
    );
  }

  /** `mooring mcp test NAME`: the saved server, its secrets from the keychain. */
  async testSaved(name: string): Promise<ConnectionTestResult> {
    return this.test(await this.get(name));
  }

  close(): void {
    this.stopWatch?.();
    this.stopWatch = undefined;
  }

  /** One read-modify-write of one server entry, atomic in the file, then the sessions follow. */
  private async change(name: string, edit: (c: ServerConfig) => ServerConfigInput): Promise<void> {
    await this.deps.manager.store.transaction((servers) => {
      const at = servers.findIndex((s) => s.name === name);
      if (at < 0)
        throw new MooringError('not_found', `No server named "${name}".`, 'Run "mooring mcp list".');
      return servers.map((s, i) => (i === at ? edit(s) : s));
    });
    this.deps.tools.invalidate();
    // Not `sync`: a safe set being applied comes through here, and must not wait for itself.
    if (this.live) await this.syncSessions();
  }
}
