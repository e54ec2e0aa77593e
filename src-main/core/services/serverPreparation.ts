// What runs before every connect, for the core's pools alike (ARCHITECTURE.md, "The core as one object"):
// the stdio allowlist (the name first, then — with secrets and VS Code inputs resolved, so the child's real
// environment is known — where the runtime resolves), the OSV package check (once per command line per
// process); and the SSRF-guarded, DNS-pinned fetch each remote server uses.
import type { FetchLike } from '@modelcontextprotocol/client';
import type { RemoteServerConfig, ServerConfig } from '@shared/config';
import type { LogLine } from '@shared/session';
import { childEnvironment } from '../mcp/childEnv';
import type { DialGuard } from '../mcp/serverDial';
import { checkCommandAllowed, checkRuntimeLocation } from '../safety/commandAllowlist';
import { createGuardedFetch, type GuardedFetch } from '../safety/guardedFetch';
import { checkServerPackages } from '../safety/osvCheck';
import type { SecretRedactor } from '../safety/redact';
import { checkUrl, ssrfPolicyOf } from '../safety/ssrfGuard';
import type { SecretStore } from '../secrets/secretStore';
import { resolveServerConfig, secretValuesOf } from '../secrets/serverSecrets';
import { canonicalWorkspace } from '../workspace/discovery';
import { resolveWorkspaceInputs, substituteStartVariables } from '../workspace/workspaceInputs';
import { isLocalTransport } from '@shared/transports';

export interface ServerPreparationDeps {
  secrets: SecretStore;
  env: () => NodeJS.ProcessEnv;
  osvEndpoint: () => string;
  /** The process-wide project folder (CLI --workspace), if any. */
  workspace?: string;
  log: (line: LogLine) => void;
  /** Learns the secret values each resolved config holds, so they are masked wherever text is shown. */
  redactor?: SecretRedactor;
  /** Refuses a server the managed policy does not allow to start (confine/managedPolicy.ts). */
  admit?: (config: ServerConfig) => void;
}

export class ServerPreparation {
  private packageChecks = new Map<string, Promise<void>>();
  private fetches = new Map<string, GuardedFetch>();

  constructor(private readonly deps: ServerPreparationDeps) {}

  /** Refuses (MooringError) or returns the config to start with: secrets, env references and inputs filled in. */
  async prepare(
    config: ServerConfig,
    warn: (text: string) => void,
    workspace?: string,
  ): Promise<ServerConfig> {
    this.deps.admit?.(config);
    checkCommandAllowed(config);
    const folder =
      workspace ?? (this.deps.workspace ? await canonicalWorkspace(this.deps.workspace) : undefined);
    // A folder's pool holds only that folder's servers: their inputs are the folder's. The process-wide
    // folder (`--workspace`) also runs the global servers, whose own inputs resolve in resolveServerConfig.
    const withInputs = folder
      ? await resolveWorkspaceInputs(config, {
          workspace: folder,
          secrets: this.deps.secrets,
          keepMissing: workspace === undefined,
        })
      : config;
    const withFolder = substituteStartVariables(withInputs, folder);
    const resolved = await resolveServerConfig(withFolder, this.deps.secrets, this.deps.env());
    // Known before the server starts, so its first stderr line is already masked.
    this.deps.redactor?.add(secretValuesOf(config, resolved));
    if (isLocalTransport(config.transport)) {
      // Judged on the environment the child really gets (a PATH in the server's env counts).
      await checkRuntimeLocation(resolved, {
        childPath: (await childEnvironment(resolved.env)).PATH,
        userPath: (await childEnvironment({})).PATH,
        cwd: resolved.cwd,
      });
      const key = JSON.stringify([config.command, config.args]);
      let check = this.packageChecks.get(key);
      if (!check) {
        check = checkServerPackages(config, { endpoint: this.deps.osvEndpoint() }).then((r) =>
          r.warnings.forEach(warn),
        );
        this.packageChecks.set(key, check);
        check.catch(() => this.packageChecks.delete(key));
      }
      await check;
    }
    return resolved;
  }

  /**
   * How a remote server is dialled (mcp/serverDial.ts): the guarded fetch below, and the same SSRF policy's
   * check for a connection a transport opens without fetch.
   */
  guardFor(config: RemoteServerConfig): DialGuard {
    const policy = ssrfPolicyOf(config);
    return { fetch: this.fetchFor(config), check: async (url) => void (await checkUrl(url, policy)) };
  }

  /** One guarded fetch per remote server config, reused across reconnects and closed with the core. */
  fetchFor(config: ServerConfig): FetchLike {
    const key = JSON.stringify([
      config.name,
      config.url,
      config.allowPrivateNetwork,
      config.allowLinkLocalHosts,
    ]);
    let f = this.fetches.get(key);
    if (!f) {
      f = createGuardedFetch({
        ...ssrfPolicyOf(config),
        onNote: (note) =>
          this.deps.log({ server: config.name, at: Date.now(), source: 'host', level: 'notice', text: note }),
      });
      this.fetches.set(key, f);
    }
    return f as unknown as FetchLike;
  }

  async close(): Promise<void> {
    await Promise.all([...this.fetches.values()].map((f) => f.close().catch(() => undefined)));
    this.fetches.clear();
  }
}
