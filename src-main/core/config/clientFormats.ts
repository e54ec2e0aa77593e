// Which client's configuration a document is, and where its server entries are (importFormats.ts does the
// rest: names, checks, positions). Each shape as its client documents it:
// - `mcpServers` object: Claude Desktop, Cursor, Windsurf (`serverUrl` for a remote), LM Studio's mcp.json,
//   Cherry Studio's export (`baseUrl`, `isActive`, `type: "streamableHttp"`), a project's `.mcp.json`;
// - Claude Code's `~/.claude.json`: `mcpServers` of the user, and of each folder under `projects`;
// - VS Code: `servers` (mcp.json) or `mcp.servers` (settings.json), with `inputs`;
// - Zed: `context_servers` in its settings.json;
// - Goose: `extensions` in config.yaml (`cmd`, `envs`, `uri`, `type: streamable_http`);
// - Continue: an `mcpServers` list in config.yaml or a block file, or the older config.json's
//   `experimental.modelContextProtocolServers` (each `{transport: {…}}`);
// - Mooring: a `servers` list (mcp_servers.json).
import { basename } from 'node:path';
import type { JsonPath } from './jsonDiagnostics';

export type ImportFormat = 'claude' | 'claude-code' | 'vscode' | 'zed' | 'goose' | 'continue' | 'mooring';

/** What a file of each format is, in the words of the person importing it ("This is …"). */
export const FORMAT_NAMES: Record<ImportFormat, string> = {
  claude: 'an "mcpServers" config (Claude Desktop, Cursor, Windsurf, LM Studio, Cherry Studio or .mcp.json)',
  'claude-code': "Claude Code's ~/.claude.json",
  vscode: 'a VS Code MCP config',
  zed: "Zed's settings",
  goose: "Goose's config",
  continue: 'a Continue config',
  mooring: "Mooring's own mcp_servers.json",
};

/** The formats Mooring reads, for the error an unknown document gets. */
export const FORMATS_READ =
  'Mooring reads "mcpServers" (Claude Desktop, Cursor, Windsurf, LM Studio, Cherry Studio, .mcp.json), ' +
  'Claude Code\'s ~/.claude.json, "servers" or "mcp.servers" (VS Code), "context_servers" (Zed), ' +
  '"extensions" (Goose config.yaml), an "mcpServers" list (Continue) and a "servers" list (Mooring)';

export interface RawEntry {
  /** Where the entry is in the file. */
  source: JsonPath;
  /** Its name in the file (the key, or the `name` field). */
  name: unknown;
  value: unknown;
  /** A Claude Code project's folder: its servers ran there. */
  projectFolder?: string;
}

export interface Detected {
  format: ImportFormat;
  entries: RawEntry[];
  /** Where VS Code's `inputs` are. */
  inputsAt?: JsonPath;
  /** The key of the servers, for "other keys are not imported" (our own format). */
  base?: JsonPath;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const fromMap = (container: Record<string, unknown>, base: JsonPath): RawEntry[] =>
  Object.entries(container).map(([key, value]) => ({ source: [...base, key], name: key, value }));

const fromList = (container: unknown[], base: JsonPath): RawEntry[] =>
  container.map((value, i) => ({
    source: [...base, i],
    name: isObject(value) ? value.name : undefined,
    value,
  }));

export function detectFormat(doc: Record<string, unknown>): Detected | null {
  if (isObject(doc.projects) && Object.values(doc.projects).some((p) => isObject(p) && 'mcpServers' in p))
    return { format: 'claude-code', entries: claudeCodeEntries(doc) };
  if (isObject(doc.mcpServers)) return { format: 'claude', entries: fromMap(doc.mcpServers, ['mcpServers']) };
  if (Array.isArray(doc.mcpServers))
    return { format: 'continue', entries: fromList(doc.mcpServers, ['mcpServers']) };
  const legacy = isObject(doc.experimental) ? doc.experimental.modelContextProtocolServers : undefined;
  if (Array.isArray(legacy)) {
    const base = ['experimental', 'modelContextProtocolServers'];
    return {
      format: 'continue',
      entries: legacy.map((value, i) => ({ source: [...base, i], name: `continue-${i + 1}`, value })),
    };
  }
  if (isObject(doc.context_servers))
    return { format: 'zed', entries: fromMap(doc.context_servers, ['context_servers']) };
  if (isObject(doc.extensions)) return { format: 'goose', entries: fromMap(doc.extensions, ['extensions']) };
  if (Array.isArray(doc.servers))
    return { format: 'mooring', entries: fromList(doc.servers, ['servers']), base: ['servers'] };
  if (isObject(doc.servers))
    return { format: 'vscode', entries: fromMap(doc.servers, ['servers']), inputsAt: ['inputs'] };
  // VS Code user settings.json keeps the same shape under "mcp".
  if (isObject(doc.mcp) && isObject(doc.mcp.servers))
    return {
      format: 'vscode',
      entries: fromMap(doc.mcp.servers, ['mcp', 'servers']),
      inputsAt: ['mcp', 'inputs'],
    };
  return null;
}

/** The user's servers, then each project's; a project server named like one before it gets the folder's name. */
function claudeCodeEntries(doc: Record<string, unknown>): RawEntry[] {
  const entries = isObject(doc.mcpServers) ? fromMap(doc.mcpServers, ['mcpServers']) : [];
  const taken = new Set(entries.map((e) => String(e.name)));
  for (const [folder, project] of Object.entries(doc.projects as Record<string, unknown>)) {
    if (!isObject(project) || !isObject(project.mcpServers)) continue;
    for (const e of fromMap(project.mcpServers, ['projects', folder, 'mcpServers'])) {
      let name = String(e.name);
      if (taken.has(name)) name = `${name}-${basename(folder) || 'project'}`;
      for (let n = 2; taken.has(name); n++) name = `${String(e.name)}-${basename(folder)}-${n}`;
      taken.add(name);
      entries.push({ ...e, name, projectFolder: folder });
    }
  }
  return entries;
}

export interface Normalised {
  /** The entry in the shape the claude/vscode conversion reads (command, args, env, url, headers, …). */
  raw: Record<string, unknown>;
  /** Our field → where it came from in the entry, for error positions. */
  map: Record<string, JsonPath>;
  /** Set when the entry has nothing to import (a built-in extension): the note to show instead. */
  skip?: string;
  notes: string[];
}

/** Keys a client keeps about a server that say nothing about how to run it; left out without a note. */
const METADATA = new Set([
  'name',
  'description',
  'id',
  'provider',
  'providerUrl',
  'logoUrl',
  'tags',
  'registryUrl',
  'installSource',
  'searchKey',
  'reference',
  'display_name',
  'bundled',
  'version',
  'schema',
]);

function rename(raw: Record<string, unknown>, from: string, to: string, out: Normalised): void {
  if (raw[from] === undefined) return;
  if (raw[to] === undefined) {
    out.raw[to] = raw[from];
    out.map[to === 'disabled' ? 'enabled' : to] = [from];
  }
  delete out.raw[from];
}

/** One entry of a client's file in the common shape, with what was renamed and what to tell the user. */
export function normaliseEntry(format: ImportFormat, value: Record<string, unknown>): Normalised {
  const out: Normalised = { raw: { ...value }, map: {}, notes: [] };
  for (const key of Object.keys(value)) if (METADATA.has(key)) delete out.raw[key];
  if (format === 'goose') {
    const type = value.type;
    if (type === 'builtin' || type === 'platform' || type === 'frontend' || type === 'inline_python')
      return { ...out, skip: `a Goose ${String(type)} extension (it runs inside Goose), not imported` };
    rename(value, 'cmd', 'command', out);
    rename(value, 'envs', 'env', out);
    rename(value, 'uri', 'url', out);
    if (value.enabled === false) out.raw.disabled = true;
    if (value.enabled !== undefined) out.map.enabled = ['enabled'];
    delete out.raw.enabled;
    if (Array.isArray(value.env_keys) && value.env_keys.length)
      out.notes.push(
        `"env_keys" (${value.env_keys.map(String).join(', ')}) are kept in Goose's keychain; give them to this server yourself`,
      );
    delete out.raw.env_keys;
    if (value.available_tools !== undefined)
      out.notes.push('"available_tools" is not imported; choose its tools in Mooring');
    delete out.raw.available_tools;
  }
  if (format === 'continue' && isObject(value.transport)) {
    // Continue's older config.json: `{ transport: { type, command, args, env, url } }`.
    const { transport, ...rest } = out.raw;
    out.raw = { ...rest, ...(transport as Record<string, unknown>) };
    for (const k of Object.keys(transport as Record<string, unknown>))
      out.map[k === 'type' ? 'transport' : k] = ['transport', k];
  }
  if (format === 'claude' || format === 'claude-code' || format === 'continue') {
    rename(value, 'serverUrl', 'url', out); // Windsurf
    rename(value, 'baseUrl', 'url', out); // Cherry Studio
    if (value.isActive !== undefined) {
      // Cherry Studio
      if (value.isActive === false) out.raw.disabled = true;
      out.map.enabled = ['isActive'];
      delete out.raw.isActive;
    }
    if (value.type === 'streamableHttp') out.raw.type = 'http';
    if (value.type === 'inMemory')
      return { ...out, skip: 'a Cherry Studio built-in server (it runs inside Cherry Studio), not imported' };
  }
  if (typeof value.timeout === 'number' && format !== 'mooring') {
    out.raw.timeoutSeconds = value.timeout;
    out.map.timeoutSeconds = ['timeout'];
    delete out.raw.timeout;
  }
  return out;
}
