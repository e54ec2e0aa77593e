// Workspace servers inside the app: a conversation tied to a project folder sees that folder's
// approved servers, and a server of the same name overrides the global one for that conversation only.
// Each folder with such servers gets its own small session pool; the global pool is untouched.
import type { ServerConfig } from '@shared/config';
import { SessionPool, type PoolActorOptions } from '../mcp/sessionPool';
import type { SessionActor } from '../mcp/sessionActor';
import { canonicalWorkspace } from './discovery';
import { effectiveServers } from './workspaceServers';
import type { WorkspaceScan } from './workspaceTypes';

export interface WorkspaceSessionsDeps {
  globalConfigs: () => Promise<ServerConfig[]>;
  scan: (dir: string) => Promise<WorkspaceScan>;
  /** Pool options for one workspace (its `prepare` resolves that folder's VS Code inputs). */
  poolOptions: (workspace: string) => PoolActorOptions;
  /** A workspace session's tools or state changed: catalogs must be rebuilt. */
  onChange: () => void;
}

interface Entry {
  pool: SessionPool;
  /** Names this workspace runs itself (overrides and additions). */
  own: Set<string>;
}

export class WorkspaceSessions {
  private entries = new Map<string, Entry>();

  constructor(private readonly deps: WorkspaceSessionsDeps) {}

  /** Starts (or syncs) the folder's approved servers; returns the folder's canonical path. */
  async ensure(dir: string): Promise<string> {
    const workspace = await canonicalWorkspace(dir);
    const eff = effectiveServers(await this.deps.globalConfigs(), await this.deps.scan(workspace));
    const own = new Set([...eff.overrides.map((o) => o.name), ...eff.added.map((a) => a.name)]);
    let entry = this.entries.get(workspace);
    if (!entry) {
      const pool = new SessionPool(this.deps.poolOptions(workspace));
      pool.on('tools', () => this.deps.onChange());
      pool.on('status', () => this.deps.onChange());
      entry = { pool, own };
      this.entries.set(workspace, entry);
    }
    entry.own = own;
    await entry.pool.sync(eff.servers.filter((s) => own.has(s.name)));
    this.deps.onChange();
    return workspace;
  }

  /** The sessions a conversation in this (canonical) folder uses: the globals it does not override, then its own. */
  actors(workspace: string | undefined, global: SessionActor[]): SessionActor[] {
    const entry = workspace ? this.entries.get(workspace) : undefined;
    if (!entry) return global;
    return [...global.filter((a) => !entry.own.has(a.name)), ...entry.pool.list()];
  }

  actor(workspace: string | undefined, name: string): SessionActor | undefined {
    const entry = workspace ? this.entries.get(workspace) : undefined;
    return entry?.own.has(name) ? entry.pool.get(name) : undefined;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.pool.closeAll()));
    this.entries.clear();
  }
}
