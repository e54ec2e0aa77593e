// The configured-servers service: every change to mcp_servers.json the app or the CLI can make, each
// one method that keeps the file, the keychain, the quarantine and the live sessions in step (add, edit,
// remove, enable, the tool toggle, import), and what the Servers screen lists. The sessions that follow the
// file are `sessions` (services/serverSessions.ts: sync, restart, the default safe set), the Test button's
// throwaway sessions `connections` (services/connectionTests.ts). Routers and commands call these; none
// writes the file itself.
import type { ServerConfig, ServerConfigInput } from '@shared/config';
import { confinementSummary, type ConfinementView } from '@shared/confinement';
import type { ServerSourceKind } from '@shared/managedPolicy';
import type { LogLine, SessionStatus } from '@shared/session';
import type { ServerRow } from '@shared/wire';
import type { ToolService } from '../calls/toolService';
import type { ConfigVariable, ImportDropped, ImportGrant } from '@shared/importConsent';
import { FORMAT_NAMES } from '../config/clientFormats';
import { importGrants } from '../config/importConsent';
import { configVariables } from '../secrets/configVariables';
import { parseImport, type ImportResult } from '../config/importFormats';
import type { ServerManager } from '../config/serverManager';
import { parseServerInput } from '../config/serversStore';
import { DisposableObject } from '../disposable';
import { MooringError } from '../errors';
import type { PoolActorOptions, SessionPool } from '../mcp/sessionPool';
import { describeCommandLine } from '../safety/commandAllowlist';
import { describeWorkspaceErrors, effectiveServers } from '../workspace/workspaceServers';
import type { WorkspaceScan } from '../workspace/workspaceTypes';
import { ConnectionTests } from './connectionTests';
import type { SafeDefaults, SafeSetMarks } from './safeSet';
import { ServerSessions } from './serverSessions';

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
  /** Per server: the secret-looking variables the person ticked for its remote URL or headers. */
  allowVariables?: Record<string, string[]>;
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
  /** Every variable it refers to and where its value goes; secret ones bound for a remote server held. */
  variables: ConfigVariable[];
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

export class ConfiguredServers extends DisposableObject {
  /** The sessions that follow the configs: sync, startOnly, watch, refresh, restart, traffic recording. */
  readonly sessions: ServerSessions;
  /** A handshake and tools/list on a throwaway session (the form's Test, `mooring mcp test`). */
  readonly connections: ConnectionTests;

  constructor(private readonly deps: ConfiguredServersDeps) {
    super();
    this.sessions = this.register(
      new ServerSessions({
        pool: deps.pool,
        configs: () => this.configs(),
        store: deps.manager.store,
        safeSet: deps.safeSet,
        exclude: (name, tools) =>
          this.change(name, (c) => ({ ...c, excludeTools: [...new Set([...c.excludeTools, ...tools])] })),
        tools: deps.tools,
        log: deps.log,
        ...(deps.onFileChange ? { onFileChange: deps.onFileChange } : {}),
      }),
    );
    this.connections = new ConnectionTests({ session: deps.testSession, saved: (name) => this.get(name) });
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
    const confinement = await this.deps.confinement?.(configs);
    // The live parts are read after the last await: an answer is never older than the events sent before it.
    const statuses = new Map(this.statuses().map((s) => [s.name, s]));
    const costs = this.deps.tools.tokenCostByServer();
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
    const { safeSet } = this.sessions;
    if (opts.safeDefaults !== false) await safeSet.expect([saved.name]);
    if (opts.start !== false) {
      await this.sessions.sync();
      await this.sessions.firstConnects([saved.name]);
    }
    const safeDefaults =
      opts.safeDefaults === false ? { disabledCount: 0 } : await safeSet.outcome(saved.name);
    return { ...saved, safeDefaults };
  }

  async update(name: string, input: ServerConfigInput): Promise<ServerConfig> {
    const saved = await this.deps.manager.update(name, input);
    await this.sessions.follow();
    return saved;
  }

  /** Removes the server, its keychain secrets, its sign-in and what its install unpacked. */
  async remove(name: string): Promise<void> {
    await this.deps.forgetSignIn(name).catch(() => undefined);
    await this.deps.manager.remove(name);
    await this.deps.removeInstalledFiles?.(name);
    await this.sessions.follow();
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.deps.manager.store.setEnabled(name, enabled);
    await this.sessions.follow();
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
        variables: configVariables(config),
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
      ...(request.allowVariables ? { allowVariables: request.allowVariables } : {}),
    });
    const names = [...merged.added, ...merged.replaced];
    if (request.safeDefaults === false) {
      await this.sessions.follow();
      return { added: merged.added, replaced: merged.replaced, safeDefaults: {} };
    }
    await this.sessions.safeSet.expect(names);
    await this.sessions.follow();
    await this.sessions.firstConnects(names);
    const outcomes = await Promise.all(names.map((name) => this.sessions.safeSet.outcome(name)));
    const safeDefaults = Object.fromEntries(names.map((name, i) => [name, outcomes[i]!]));
    return { added: merged.added, replaced: merged.replaced, safeDefaults };
  }

  /** Ends what the sessions started (the file's watch). */
  async close(): Promise<void> {
    await this.dispose();
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
    await this.sessions.afterEdit();
  }
}
