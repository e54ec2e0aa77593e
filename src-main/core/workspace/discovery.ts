// Discovery of the MCP project files people already keep in a repository: `.vscode/mcp.json`
// (VS Code, with `inputs`), `.cursor/mcp.json` (Cursor), `.mcp.json` (Claude Code), next to our own
// `.mooring/mcp_servers.json`. Found servers are offered, never started silently: each is shown with its
// full command line or URL and what else it may do, and runs only after the user approves exactly that
// content. What an import never carries (config/importConsent.ts: trust, trust-all, private-network
// reach…) is held back from a project file too, unless the person allows it explicitly when approving.
//
// Names: a workspace server keeps the name its file gives it (sanitised by the importer when invalid),
// so the tools the model sees are named as in VS Code or Cursor. When two workspace files define the
// same name, the first in WORKSPACE_FILES wins and the other is reported as shadowed; an approved
// workspace server overrides a global server of the same name for that workspace only.
import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerConfig } from '@shared/config';
import { confinementSummary } from '@shared/confinement';
import { readTextIfExists } from '../config/atomicJson';
import { serverConsent } from '../config/importConsent';
import { parseImport, type ImportInput } from '../config/importFormats';
import { MooringError } from '../errors';
import { describeCommandLine } from '../safety/commandAllowlist';
import type { SecretStore } from '../secrets/secretStore';
import { workspacePin, type WorkspaceApproval, type WorkspaceApprovals } from './workspaceApprovals';
import {
  askMissingInputs,
  mapConfigStrings,
  referencedInputs,
  substituteWorkspaceVariables,
  WORKSPACE_VARIABLES,
  type AskInput,
} from './workspaceInputs';
import { fileError, readMooringWorkspaceFile, type FileRead } from './workspaceServers';
import {
  DISCOVERED_FILES,
  type OfferedServer,
  type ShadowedServer,
  type WorkspaceFileError,
  type WorkspaceScan,
  type WorkspaceSource,
} from './workspaceTypes';

/** The workspace as its real path, so `./proj`, `/tmp/../proj` and a symlink pin the same approvals. */
export async function canonicalWorkspace(dir: string): Promise<string> {
  try {
    const real = await realpath(dir);
    if ((await stat(real)).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new MooringError(
    'not_found',
    `The workspace folder ${dir} does not exist or is not a folder.`,
    'Choose an existing project folder for the conversation.',
  );
}

// Claude Code's `.mcp.json` expands `${NAME}` from the environment; ours spells that `${env:NAME}`.
// The workspace variables keep their meaning (they are filled in by substituteWorkspaceVariables).
const toEnvRefs = (config: ServerConfig) =>
  mapConfigStrings(config, (v) =>
    v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string) =>
      WORKSPACE_VARIABLES.has(name) ? m : `\${env:${name}}`,
    ),
  );

async function readDiscoveredFile(workspace: string, source: WorkspaceSource): Promise<FileRead> {
  const file = join(workspace, source);
  try {
    const text = await readTextIfExists(file);
    if (text === null) return null;
    const parsed = parseImport(text, { fileName: file, keepNeverImported: true });
    const warnings = [
      ...parsed.renamed.map((r) => `"${r.from}" is not a valid server name; it is offered as "${r.to}"`),
      ...parsed.warnings,
    ];
    const servers = source === '.mcp.json' ? parsed.servers.map(toEnvRefs) : parsed.servers;
    return { ok: true, source, file, servers, warnings, inputs: parsed.inputs };
  } catch (err) {
    return { ok: false, error: fileError(source, file, err) };
  }
}

// Read with every field kept: the pin covers the whole entry, and what an import never carries is split
// off afterwards by the import's own rule (`serverConsent`), to be shown and held back.
function statusOf(
  approval: WorkspaceApproval | undefined,
  pin: string,
): Pick<OfferedServer, 'status' | 'approvedCommandLine'> {
  if (!approval) return { status: 'pending' };
  if (approval.pin === pin) return { status: 'approved' };
  return { status: 'changed', approvedCommandLine: approval.commandLine };
}

/**
 * Reads every workspace file (ours first, then VS Code, Cursor, Claude Code). A file that is malformed
 * is in `errors` with its location and the others are still read; nothing is started here.
 */
export async function scanWorkspace(
  dir: string,
  opts: { approvals: WorkspaceApprovals },
): Promise<WorkspaceScan> {
  const workspace = await canonicalWorkspace(dir);
  const reads = await Promise.all([
    readMooringWorkspaceFile(workspace),
    ...DISCOVERED_FILES.map((source) => readDiscoveredFile(workspace, source)),
  ]);
  const servers: OfferedServer[] = [];
  const shadowed: ShadowedServer[] = [];
  const errors: WorkspaceFileError[] = [];
  for (const read of reads) {
    if (!read) continue;
    if (!read.ok) {
      errors.push(read.error);
      continue;
    }
    const declared = read.inputs ?? [];
    for (const parsed of read.servers) {
      const winner = servers.find((s) => s.name === parsed.name);
      if (winner) {
        shadowed.push({ name: parsed.name, source: read.source, by: winner.source });
        continue;
      }
      const full = substituteWorkspaceVariables(parsed, workspace);
      const pin = workspacePin({ workspace, source: read.source, server: full });
      const approval = opts.approvals.get(workspace, read.source, full.name);
      // Variables the person allowed count only for the content they approved.
      const allowedVariables = approval?.pin === pin ? (approval.allowedVariables ?? []) : [];
      const { safe, grants, heldBack, variables } = serverConsent(full, { allowedVariables });
      const inputs = referencedInputs(full).map(
        (id): ImportInput =>
          declared.find((i) => i.id === id) ?? {
            id,
            type: 'promptString',
            password: false,
            usedBy: [full.name],
            declared: false,
          },
      );
      const status = statusOf(approval, pin);
      const heldBackAllowed =
        heldBack.length > 0 && status.status === 'approved' && approval?.heldBackAllowed === true;
      servers.push({
        workspace,
        source: read.source,
        file: read.file,
        name: full.name,
        // Held-back settings allowed: the whole entry, still without the variables not allowed.
        config: heldBackAllowed ? { ...full, ...heldVariablesOf(safe) } : safe,
        grants,
        variables,
        heldBack,
        heldBackAllowed,
        commandLine: describeCommandLine(full),
        confinement: confinementSummary(heldBackAllowed ? full : safe),
        inputs,
        pin,
        ...status,
        warnings: read.warnings.filter((w) => w.includes(parsed.name)),
      });
    }
  }
  return { workspace, servers, shadowed, errors };
}

/**
 * Approves one offered server: asks for its inputs not yet in the keychain (once per workspace),
 * stores them, then pins the approval to the entry's content. An entry edited after the scan it was
 * offered from is not covered: the next scan shows it as `changed`.
 */
export async function approveWorkspaceServer(opts: {
  offered: OfferedServer;
  approvals: WorkspaceApprovals;
  secrets: SecretStore;
  ask?: AskInput;
  decidedBy?: string;
  /** Also allow what the entry asks beyond an import (`offered.heldBack`); default: held back. */
  allowHeldBack?: boolean;
  /** Secret-looking variables the person allowed into this remote server's URL or headers. */
  allowVariables?: readonly string[];
}): Promise<{ approval: WorkspaceApproval; askedInputs: string[] }> {
  const { offered } = opts;
  const askedInputs = await askMissingInputs({
    workspace: offered.workspace,
    server: offered.name,
    inputs: offered.inputs,
    secrets: opts.secrets,
    ask: opts.ask,
  });
  const approval = await opts.approvals.approve({
    workspace: offered.workspace,
    source: offered.source,
    name: offered.name,
    pin: offered.pin,
    commandLine: offered.commandLine,
    ...(opts.decidedBy ? { decidedBy: opts.decidedBy } : {}),
    ...(opts.allowHeldBack && offered.heldBack.length ? { heldBackAllowed: true } : {}),
    ...allowedOf(offered, opts.allowVariables),
  });
  return { approval, askedInputs };
}

/**
 * The workspace servers that may run now: approved and unchanged since. Their `${input:ID}` values are
 * still references; pass each through `resolveWorkspaceInputs` when it starts.
 */
export async function approvedServers(
  dir: string,
  opts: { approvals: WorkspaceApprovals },
): Promise<ServerConfig[]> {
  const scan = await scanWorkspace(dir, opts);
  return scan.servers.filter((s) => s.status === 'approved').map((s) => s.config);
}

const heldVariablesOf = (c: ServerConfig) => (c.heldVariables ? { heldVariables: c.heldVariables } : {});

/**
 * The variables an approval allows: those asked for now that the entry holds or allowed before (a name
 * the entry does not send to its remote server is refused, so a typo is never a silent no).
 */
function allowedOf(offered: OfferedServer, asked: readonly string[] = []) {
  const before = offered.variables.filter((v) => v.allowed).map((v) => v.name);
  if (!asked.length) return before.length ? { allowedVariables: [...new Set(before)] } : {};
  const bound = new Set(offered.variables.filter((v) => v.held || v.allowed).map((v) => v.name));
  const unknown = asked.filter((n) => !bound.has(n));
  if (unknown.length)
    throw new MooringError(
      'usage',
      `"${offered.name}" sends no held-back variable named ${unknown.join(', ')}; nothing was approved.`,
      `The variables it would send to its server are listed above: ${[...bound].join(', ') || 'none'}.`,
    );
  return { allowedVariables: [...new Set([...before, ...asked])] };
}
