// The permissions service: every standing permission a person gave, in one list, and taking any of them
// back — "always allow" per tool (approvals.json, pinned to the tool's fingerprint), servers whose policy
// lets calls run unasked, "allow for this conversation" (in memory), approved project-folder servers
// (workspace-approvals.json, pinned to content), pairs of servers data may flow between
// (flow-permissions.json, docs/trust.md), OAuth sign-ins (the keychain) and skill approvals
// (skill-approvals.json, docs/skills.md). The Permissions screen
// and any CLI command come here; each permission stays owned by its own store.
import { isRemoteServer, type ServerConfig } from '@shared/config';
import type { PermissionsView, Revocation, ServerPermission, SignInPermission } from '@shared/permissions';
import { MooringError } from '../errors';
import type { ApprovalStore } from '../safety/approvalStore';
import type { ConversationGrants } from '../safety/conversationGrants';
import type { FlowPermissions } from '../safety/flowPermissions';
import type { WorkspaceService } from '../workspace/workspaceService';
import type { SkillsService } from '../skills/skillsService';
import type { ConfiguredServers } from './configuredServers';

/** Sign-in state and sign-out, from the auth room (this room may not import it). */
export interface SignIns {
  state(server: ServerConfig): Promise<Omit<SignInPermission, 'server' | 'resource'> & { signedIn: boolean }>;
  signOut(server: string): Promise<void>;
}

export interface PermissionsDeps {
  approvals: ApprovalStore;
  /** Pairs of servers data may flow between (safety/flowPermissions.ts). */
  flows: Pick<FlowPermissions, 'list' | 'revoke' | 'allow'>;
  grants: ConversationGrants;
  workspaces: Pick<WorkspaceService, 'approvals' | 'revokeApproval'>;
  servers: Pick<ConfiguredServers, 'configs' | 'setPolicy'>;
  signIns: SignIns;
  /** Skill approvals bound to their manifests (skills/skillsService.ts). */
  skills: Pick<SkillsService, 'permissions' | 'revoke'>;
}

const UNASKED = new Set(['trust-all', 'auto-read-only']);

export class PermissionsService {
  constructor(private readonly deps: PermissionsDeps) {}

  async list(): Promise<PermissionsView> {
    const configs = await this.deps.servers.configs();
    const [tools, workspaces, signIns] = await Promise.all([
      this.deps.approvals.reload(),
      this.deps.workspaces.approvals(),
      this.signIns(configs),
    ]);
    const byTime = <T extends { at: number }>(a: T, b: T) => b.at - a.at;
    return {
      tools: tools
        .map((e) => ({
          server: e.server,
          tool: e.tool,
          fingerprint: e.fingerprint,
          at: e.at,
          decidedBy: e.decidedBy,
        }))
        .sort(byTime),
      flows: this.deps.flows.list().sort((a, b) => b.allowedAt - a.allowedAt),
      servers: configs
        .filter((c) => UNASKED.has(c.policy))
        .map((c) => ({ server: c.name, policy: c.policy as ServerPermission['policy'] })),
      conversations: this.deps.grants.list().sort(byTime),
      workspaces: workspaces
        .map((w) => ({
          workspace: w.workspace,
          source: w.source,
          name: w.name,
          pin: w.pin,
          commandLine: w.commandLine,
          approvedAt: w.approvedAt,
          heldBackAllowed: w.heldBackAllowed === true,
        }))
        .sort((a, b) => b.approvedAt - a.approvedAt),
      signIns,
      skills: this.deps.skills.permissions(),
    };
  }

  /**
   * Lets what a conversation read from `from` go to `to`'s tools without asking about the flow (`*` as
   * `from`: `to` is a trusted destination for its read-only, closed-world tools). docs/trust.md.
   */
  async allowFlow(from: string, to: string): Promise<void> {
    const names = new Set((await this.deps.servers.configs()).map((c) => c.name));
    for (const [what, name] of [
      ['from', from],
      ['to', to],
    ] as const)
      if (!(name === '*' && what === 'from') && !names.has(name))
        throw new MooringError('not_found', `No server named "${name}".`, 'Run "mooring mcp list".');
    await this.deps.flows.allow(from, to, 'user:cli');
  }

  /** Takes back one permission (or all); returns how many were taken back. */
  async revoke(r: Revocation): Promise<{ revoked: number }> {
    switch (r.kind) {
      case 'tool':
        return { revoked: await this.deps.approvals.forget(r.server, r.tool) };
      case 'server':
        await this.deps.servers.setPolicy(r.server, 'default');
        return { revoked: 1 };
      case 'conversation':
        return { revoked: this.deps.grants.revoke(r) };
      case 'workspace':
        return { revoked: await this.deps.workspaces.revokeApproval(r.workspace, r.source, r.name) };
      case 'signIn':
        await this.deps.signIns.signOut(r.server);
        return { revoked: 1 };
      case 'flow':
        return { revoked: await this.deps.flows.revoke(r.from, r.to) };
      case 'skill':
        return { revoked: await this.deps.skills.revoke(r.server, r.uri) };
      case 'all':
        return { revoked: await this.revokeAll() };
      default:
        throw new MooringError('usage', 'Unknown kind of permission.', 'Reload the Permissions screen.');
    }
  }

  private async revokeAll(): Promise<number> {
    const view = await this.list();
    let n = 0;
    for (const server of new Set(view.tools.map((t) => t.server)))
      n += await this.deps.approvals.forget(server);
    for (const s of view.servers) {
      await this.deps.servers.setPolicy(s.server, 'default');
      n++;
    }
    n += this.deps.grants.clear();
    for (const from of new Set(view.flows.map((f) => f.from))) n += await this.deps.flows.revoke(from);
    for (const w of view.workspaces)
      n += await this.deps.workspaces.revokeApproval(w.workspace, w.source, w.name);
    for (const s of view.signIns) {
      await this.deps.signIns.signOut(s.server);
      n++;
    }
    for (const server of new Set(view.skills.map((s) => s.server)))
      n += await this.deps.skills.revoke(server);
    return n;
  }

  private async signIns(configs: ServerConfig[]): Promise<SignInPermission[]> {
    const remote = configs.filter((c) => isRemoteServer(c));
    const states = await Promise.all(
      remote.map((c) =>
        this.deps.signIns.state(c).catch(() => ({ signedIn: false }) as { signedIn: boolean }),
      ),
    );
    return remote.flatMap((c, i) => {
      const { signedIn, ...rest } = states[i]! as { signedIn: boolean } & Partial<SignInPermission>;
      return signedIn ? [{ ...rest, server: c.name, resource: c.url! }] : [];
    });
  }
}
