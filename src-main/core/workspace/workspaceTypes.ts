// The shapes the workspace room hands to the core, the CLI (`mooring mcp list --workspace DIR`) and the UI.
import type { ServerConfig } from '@shared/config';
import type { ErrorData } from '@shared/errors';
import type { ConfigVariable, ImportDropped, ImportGrant } from '@shared/importConsent';
import type { ImportInput } from '../config/importFormats';
import type { ConfigIssue } from '../config/jsonDiagnostics';

/** Our own per-workspace file: its servers override global ones of the same name. */
export const MOORING_WORKSPACE_FILE = '.mooring/mcp_servers.json';
/** Project files other MCP hosts keep in a repo, in the order they win when two define the same name. */
export const DISCOVERED_FILES = ['.vscode/mcp.json', '.cursor/mcp.json', '.mcp.json'] as const;
/** Every file looked at, highest precedence first. */
export const WORKSPACE_FILES = [MOORING_WORKSPACE_FILE, ...DISCOVERED_FILES] as const;
export type WorkspaceSource = (typeof WORKSPACE_FILES)[number];

/**
 * - `approved`: approved with exactly this content; it runs.
 * - `pending`: never approved; it is offered and does not run.
 * - `changed`: approved once, but the entry changed since; it does not run until approved again.
 */
export type OfferStatus = 'approved' | 'pending' | 'changed';

export interface OfferedServer {
  /** The workspace folder, as its real path. */
  workspace: string;
  source: WorkspaceSource;
  /** Absolute path of the file the entry is in. */
  file: string;
  name: string;
  /**
   * What would run, `${workspaceFolder}` already filled in; `${input:ID}` left for the start. Without the
   * held-back settings unless the approval allowed them (`heldBackAllowed`).
   */
  config: ServerConfig;
  /** What it may do beyond its command line or URL, names only (config/importConsent.ts, as for an import). */
  grants: ImportGrant[];
  /**
   * What the file asks that an import never carries (trust, the trust-all policy, private-network
   * reach, a larger sampling budget, another server's keychain secrets): held back unless the person
   * allowed them explicitly when approving.
   */
  heldBack: ImportDropped[];
  /** The approval of exactly this content allowed `heldBack` too. */
  heldBackAllowed: boolean;
  /** Every variable it refers to and where its value goes (secrets/configVariables.ts); held ones are not sent. */
  variables: ConfigVariable[];
  /** The full command line (stdio) or transport and URL, secret env values shown as •••. */
  commandLine: string;
  /** What it will be able to write and reach, or that it runs unconfined (shared/confinement.ts). */
  confinement: string;
  /** VS Code inputs this server needs; asked at approval, kept in the keychain. */
  inputs: ImportInput[];
  pin: string;
  status: OfferStatus;
  /** When `changed`: the command line the user approved before, to show next to the new one. */
  approvedCommandLine?: string;
  /** Keys not imported, renamed names, and similar notes. */
  warnings: string[];
}

export interface WorkspaceFileError {
  source: WorkspaceSource;
  file: string;
  /** `config_invalid` with `file:line:col: path: what is wrong` lines. */
  error: ErrorData;
  issues: ConfigIssue[];
}

/** A server left out because a file of higher precedence in the same workspace defines the same name. */
export interface ShadowedServer {
  name: string;
  source: WorkspaceSource;
  by: WorkspaceSource;
}

export interface WorkspaceScan {
  workspace: string;
  /** One per name, highest-precedence file first. */
  servers: OfferedServer[];
  shadowed: ShadowedServer[];
  errors: WorkspaceFileError[];
}
