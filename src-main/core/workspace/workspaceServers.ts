// Per-workspace servers. A workspace is the folder a conversation is tied to (the folder
// that becomes its MCP root). Its `.mooring/mcp_servers.json`, in our own format, adds servers to the
// global ones, and a server of the same name overrides the global one for that workspace only.
// Like every workspace file it runs only once approved (see discovery.ts): a cloned repository must not
// be able to replace the user's "github" server with a command of its own choosing.
import { join } from 'node:path';
import type { ServerConfig } from '@shared/config';
import { readTextIfExists } from '../config/atomicJson';
import type { ImportInput } from '../config/importFormats';
import { ConfigInvalidError } from '../config/jsonDiagnostics';
import { parseServersText } from '../config/serversFile';
import { MooringError } from '../errors';
import {
  MOORING_WORKSPACE_FILE,
  type OfferedServer,
  type WorkspaceFileError,
  type WorkspaceScan,
  type WorkspaceSource,
} from './workspaceTypes';

/** One file's servers, or why it could not be used (never thrown: the other files and globals go on). */
export type FileRead =
  | {
      ok: true;
      source: WorkspaceSource;
      file: string;
      servers: ServerConfig[];
      warnings: string[];
      /** VS Code `inputs` the file declares. */
      inputs?: ImportInput[];
    }
  | { ok: false; error: WorkspaceFileError }
  | null;

/** Turns a parse or read failure into a reported error with its location. */
export function fileError(source: WorkspaceSource, file: string, err: unknown): WorkspaceFileError {
  if (err instanceof ConfigInvalidError) return { source, file, error: err.toData(), issues: err.issues };
  if (err instanceof MooringError) return { source, file, error: err.toData(), issues: [] };
  return {
    source,
    file,
    error: {
      code: 'config_invalid',
      message: `${file}: cannot be read (${(err as Error)?.message ?? String(err)})`,
      hint: 'Check that it is a readable file.',
    },
    issues: [],
  };
}

/** Reads `<workspace>/.mooring/mcp_servers.json` with the config room's validation; null when absent. */
export async function readMooringWorkspaceFile(workspace: string): Promise<FileRead> {
  const file = join(workspace, MOORING_WORKSPACE_FILE);
  try {
    const text = await readTextIfExists(file);
    if (text === null) return null;
    return {
      ok: true,
      source: MOORING_WORKSPACE_FILE,
      file,
      servers: parseServersText(text, file).servers,
      warnings: [],
    };
  } catch (err) {
    return { ok: false, error: fileError(MOORING_WORKSPACE_FILE, file, err) };
  }
}

export interface ServerOverride {
  name: string;
  source: WorkspaceSource;
  global: ServerConfig;
  workspace: ServerConfig;
}

export interface EffectiveServers {
  /** The globals, each replaced in place by an approved workspace server of the same name, then the rest. */
  servers: ServerConfig[];
  overrides: ServerOverride[];
  /** Approved workspace servers with a name no global server has. */
  added: { name: string; source: WorkspaceSource }[];
  /** Offered but not running: never approved, or changed since the approval. */
  pending: OfferedServer[];
  /** Workspace files that could not be used, with file:line:col; the globals are unaffected. */
  errors: WorkspaceFileError[];
}

/**
 * The servers of a conversation in `scan.workspace`: the global ones plus the workspace's approved
 * servers, a workspace server overriding a global one of the same name. Never throws for a bad
 * workspace file: it is in `errors` and the globals keep working.
 */
export function effectiveServers(global: readonly ServerConfig[], scan: WorkspaceScan): EffectiveServers {
  const approved = new Map(
    scan.servers.filter((s) => s.status === 'approved').map((s) => [s.name, s] as const),
  );
  const overrides: ServerOverride[] = [];
  const servers = global.map((g) => {
    const w = approved.get(g.name);
    if (!w) return g;
    overrides.push({ name: g.name, source: w.source, global: g, workspace: w.config });
    return w.config;
  });
  const added: EffectiveServers['added'] = [];
  for (const w of approved.values())
    if (!global.some((g) => g.name === w.name)) {
      servers.push(w.config);
      added.push({ name: w.name, source: w.source });
    }
  return {
    servers,
    overrides,
    added,
    pending: scan.servers.filter((s) => s.status !== 'approved'),
    errors: scan.errors,
  };
}

/** One line per problem, for a log or a terminal: `file:line:col: path: message`. */
export function describeWorkspaceErrors(errors: readonly WorkspaceFileError[]): string[] {
  return errors.flatMap((e) => e.error.message.split('\n'));
}
