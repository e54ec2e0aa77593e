// The workspaces service: what a project folder offers (its own file, .vscode/.cursor/.mcp.json) with
// each entry's approval, approving one (pinned to its content; VS Code inputs to the keychain), and the
// per-folder sessions of a conversation tied to a folder. The Project folder screen, `mooring mcp
// list|approve --workspace` and the chat all come here.
import type { ServerConfig } from '@shared/config';
import { toDisposable, type Disposable } from '../disposable';
import { MooringError } from '../errors';
import type { PoolActorOptions } from '../mcp/sessionPool';
import type { SecretStore } from '../secrets/secretStore';
import { approveWorkspaceServer, scanWorkspace } from './discovery';
import { WorkspaceApprovals, type WorkspaceApproval } from './workspaceApprovals';
import type { AskInput } from './workspaceInputs';
import { WorkspaceSessions } from './workspaceSessions';
import type { OfferedServer, WorkspaceScan } from './workspaceTypes';

export interface WorkspaceServiceDeps {
  home: string;
  secrets: SecretStore;
  /** The global servers (file and quick config) a folder's servers join or override. */
  globalConfigs: () => Promise<ServerConfig[]>;
  /** Session options for one folder's pool (its `prepare` resolves that folder's inputs). */
  poolOptions: (workspace: string) => PoolActorOptions;
  /** Refuses, naming the rule, a server the managed policy does not allow (confine/managedPolicy.ts). */
  admit?: (config: ServerConfig) => void;
}

export class WorkspaceService implements Disposable {
  private approvalFile?: WorkspaceApprovals;
  /** Per-folder pools for the approved workspace servers of conversations tied to a folder. */
  readonly sessions: WorkspaceSessions;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: WorkspaceServiceDeps) {
    this.sessions = new WorkspaceSessions({
      globalConfigs: deps.globalConfigs,
      scan: (dir) => this.scan(dir),
      poolOptions: deps.poolOptions,
      onChange: () => this.changed(),
    });
  }

  /** Calls `fn` when a folder session's tools or state changed, or an approval was taken back. */
  onChange(fn: () => void): Disposable {
    const entry = () => fn();
    this.listeners.add(entry);
    return toDisposable(() => void this.listeners.delete(entry));
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }

  /** The servers a folder offers, each with its approval status. */
  async scan(dir: string): Promise<WorkspaceScan> {
    this.approvalFile ??= await WorkspaceApprovals.open(this.deps.home);
    return scanWorkspace(dir, { approvals: this.approvalFile });
  }

  /**
   * Approves one offered server (pinned to its content); asks its VS Code inputs through `ask`. What it
   * asks beyond an import (`heldBack`) is allowed only with `allowHeldBack`. `pin` is the content the
   * person reviewed (the scan's `pin`): an entry edited since (a `git pull` while the question was open)
   * is refused, so what is approved is what was shown.
   */
  async approve(
    dir: string,
    name: string,
    opts: { ask?: AskInput; allowHeldBack?: boolean; allowVariables?: string[]; pin?: string } = {},
  ): Promise<OfferedServer> {
    const scan = await this.scan(dir);
    const offered = scan.servers.find((s) => s.name === name);
    if (!offered)
      throw new MooringError(
        'not_found',
        `Workspace ${scan.workspace} offers no server named "${name}"`,
        `List them: mooring mcp list --workspace ${dir}`,
      );
    if (opts.pin !== undefined && opts.pin !== offered.pin)
      throw new MooringError(
        'refused',
        `"${name}" in ${offered.file} changed since you reviewed it; nothing was approved.`,
        'Review it again, then approve.',
      );
    this.deps.admit?.(offered.config);
    await approveWorkspaceServer({
      offered,
      approvals: this.approvalFile!,
      secrets: this.deps.secrets,
      ...(opts.ask ? { ask: opts.ask } : {}),
      ...(opts.allowHeldBack ? { allowHeldBack: true } : {}),
      ...(opts.allowVariables?.length ? { allowVariables: opts.allowVariables } : {}),
      decidedBy: 'user',
    });
    return offered;
  }

  /** Every approved workspace server, in every folder (the Permissions screen). */
  async approvals(): Promise<WorkspaceApproval[]> {
    this.approvalFile ??= await WorkspaceApprovals.open(this.deps.home);
    await this.approvalFile.reload();
    return this.approvalFile.list();
  }

  /**
   * Takes back the approval of one workspace server. Its folder's sessions follow at the folder's next use
   * (a conversation's next turn); nothing of it starts again without a new approval.
   */
  async revokeApproval(workspace: string, source: string, name: string): Promise<number> {
    this.approvalFile ??= await WorkspaceApprovals.open(this.deps.home);
    const n = await this.approvalFile.forget(workspace, source, name);
    this.changed();
    return n;
  }

  /** Starts (or syncs) a folder's approved servers for its conversations; returns its canonical path. */
  ensure(dir: string): Promise<string> {
    return this.sessions.ensure(dir);
  }

  /** Closes every folder's sessions. */
  async dispose(): Promise<void> {
    this.listeners.clear();
    await this.sessions.closeAll();
  }
}
