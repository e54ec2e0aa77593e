// VS Code inputs (`${input:ID}`) and workspace variables. An input is asked once per
// workspace, when the user approves a server that uses it, and kept in the keychain (never in a file);
// it is substituted only when the server starts, so no config the app holds or logs carries the value.
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename } from 'node:path';
import type { ServerConfig } from '@shared/config';
import type { ImportInput } from '../config/importFormats';
import { MooringError } from '../errors';
import type { SecretStore } from '../secrets/secretStore';

const INPUT_REF = /\$\{input:([^}]+)\}/g;

/** The keychain account of one input of one workspace. */
export function inputAccount(workspace: string, id: string): string {
  const ws = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return `workspace/${ws}/input/${id}`;
}

/** Applies `fn` to every string of a config that can carry a variable. */
export function mapConfigStrings(config: ServerConfig, fn: (value: string) => string): ServerConfig {
  const mapValues = (m: Record<string, string>) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, fn(v)]));
  return {
    ...config,
    ...(config.command !== undefined ? { command: fn(config.command) } : {}),
    ...(config.url !== undefined ? { url: fn(config.url) } : {}),
    ...(config.cwd !== undefined ? { cwd: fn(config.cwd) } : {}),
    args: config.args.map(fn),
    env: mapValues(config.env),
    headers: mapValues(config.headers),
  };
}

/** The ids of every `${input:ID}` a config refers to. */
export function referencedInputs(config: ServerConfig): string[] {
  const ids = new Set<string>();
  mapConfigStrings(config, (v) => {
    for (const m of v.matchAll(INPUT_REF)) ids.add(m[1]!);
    return v;
  });
  return [...ids];
}

/**
 * VS Code's workspace variables, filled in when the file is read so the command line shown for
 * approval is the one that runs: `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`.
 */
export const WORKSPACE_VARIABLES = new Set(['workspaceFolder', 'workspaceFolderBasename', 'userHome']);

export function substituteWorkspaceVariables(config: ServerConfig, workspace: string): ServerConfig {
  return substituteVariables(config, workspace);
}

const FOLDER_VARIABLE = /\$\{(workspaceFolder|workspaceFolderBasename)\}/;

/**
 * VS Code's variables at a server's start (an imported VS Code server keeps them in its file): the folder is
 * the project folder it runs for, else the one its file came from (`workspaceFolder` in its config). With
 * neither, a server that needs the folder is refused with what to do; `${userHome}` always resolves.
 */
export function substituteStartVariables(config: ServerConfig, folder: string | undefined): ServerConfig {
  const where = folder ?? config.workspaceFolder;
  if (where) return substituteVariables(config, where);
  let needsFolder = false;
  const out = mapConfigStrings(config, (v) => {
    if (FOLDER_VARIABLE.test(v)) needsFolder = true;
    return v.replace(/\$\{userHome\}/g, homedir());
  });
  if (needsFolder)
    throw new MooringError(
      'usage',
      `Server "${config.name}" uses VS Code's \${workspaceFolder}, and it is not running for a project folder.`,
      'Run it for a folder (mooring … --workspace DIR), or edit the server and set "workspaceFolder" to the folder it should use.',
    );
  return out;
}

function substituteVariables(config: ServerConfig, workspace: string): ServerConfig {
  const vars: Record<string, string> = {
    workspaceFolder: workspace,
    workspaceFolderBasename: basename(workspace),
    userHome: homedir(),
  };
  return mapConfigStrings(config, (v) =>
    v.replace(/\$\{(workspaceFolder|workspaceFolderBasename|userHome)\}/g, (_m, k: string) => vars[k]!),
  );
}

export type AskInput = (input: ImportInput & { workspace: string; server: string }) => Promise<string>;

/** Asks for each input not yet in the keychain and stores the answer. Returns the ids that were asked. */
export async function askMissingInputs(opts: {
  workspace: string;
  server: string;
  inputs: readonly ImportInput[];
  secrets: SecretStore;
  ask?: AskInput | undefined;
}): Promise<string[]> {
  const asked: string[] = [];
  for (const input of opts.inputs) {
    const account = inputAccount(opts.workspace, input.id);
    if ((await opts.secrets.get(account)) !== null) continue;
    if (!opts.ask)
      throw new MooringError(
        'usage',
        `Server "${opts.server}" needs the value of input "${input.id}"${input.description ? ` (${input.description})` : ''}, and nobody can be asked for it here.`,
        'Approve the server where Mooring can ask you: in the app, or in a terminal.',
      );
    const value = await opts.ask({ ...input, workspace: opts.workspace, server: opts.server });
    if (typeof value !== 'string')
      throw new MooringError(
        'usage',
        `No value was given for input "${input.id}".`,
        'Approve the server again and enter it.',
      );
    await opts.secrets.set(account, value);
    asked.push(input.id);
  }
  return asked;
}

/**
 * The config a workspace server starts with: each `${input:ID}` replaced by its value from the keychain.
 * Call it before `resolveServerConfig` (which refuses any `${input:…}` left). Never log the result.
 */
export async function resolveWorkspaceInputs(
  config: ServerConfig,
  opts: {
    workspace: string;
    secrets: SecretStore;
    /**
     * Leave an input this folder has no value for as it is (the process-wide folder of `--workspace`, where
     * a global server's own inputs are resolved after this, by secrets/serverSecrets.ts).
     */
    keepMissing?: boolean;
  },
): Promise<ServerConfig> {
  const values = new Map<string, string>();
  for (const id of referencedInputs(config)) {
    const value = await opts.secrets.get(inputAccount(opts.workspace, id));
    if (value === null && opts.keepMissing) continue;
    if (value === null)
      throw new MooringError(
        'secret_unavailable',
        `Server "${config.name}": the value of input "${id}" is not in the keychain.`,
        `Approve the server again in workspace ${opts.workspace}; Mooring will ask for it.`,
      );
    values.set(id, value);
  }
  if (values.size === 0) return config;
  return mapConfigStrings(config, (v) => v.replace(INPUT_REF, (ref, id: string) => values.get(id) ?? ref));
}
