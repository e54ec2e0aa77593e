// Install links: a web page's "add to Mooring" button, or one made for Cursor or VS Code, carries one server's
// configuration. This turns such a link into a validated server entry, or a clear error. It never installs
// anything: the result goes to a consent screen where the user sees the full command line first.
//
// Accepted forms (everything in them is untrusted text from a web page):
//   mooring://install?name=NAME&config=BASE64(JSON)   JSON: a Mooring server entry (mcp_servers.json fields)
//   cursor://anysphere.cursor-deeplink/mcp/install?name=NAME&config=BASE64(JSON)   JSON: an `mcpServers` entry
//   vscode:mcp/install?URL-ENCODED(JSON)   (also vscode-insiders:)   JSON: a VS Code server entry with `name`
// The entry is checked by the same code that imports those products' files (config/importFormats.ts), so a
// link and a pasted file agree on every field.
import type { InstallLinkResult, InstallLinkSource } from '@shared/install';
import { parseImport } from '../config/importFormats';
import { ConfigInvalidError } from '../config/jsonDiagnostics';

export type { InstallLinkResult, InstallLinkSource };

/** Links longer than this are refused before any decoding (a real entry is a few hundred bytes). */
export const MAX_INSTALL_LINK_LENGTH = 32_768;

const HINT =
  'Nothing was installed. Ask the page that offered the link for a corrected one, or add the server by hand.';
const fail = (error: string): InstallLinkResult => ({ ok: false, error, hint: HINT });

/** Standard or URL-safe base64, padding optional; anything else is refused rather than half-decoded. */
function decodeBase64(text: string): string | undefined {
  const s = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.replace(/=+$/, '').length % 4 === 1) return undefined;
  return Buffer.from(s, 'base64').toString('utf8');
}

function parseJson(text: string, what: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { error: `${what} is not valid JSON (${(err as Error).message})` };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which form the link is, and the parts that carry the entry. */
function split(
  raw: string,
): { source: InstallLinkSource; name?: string | null; config?: string | null; json?: string } | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'this is not a link';
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme === 'mooring') {
    // mooring://install?… parses with host "install" and an empty path.
    if (url.hostname !== 'install' || !['', '/'].includes(url.pathname))
      return `a Mooring link must be mooring://install?name=…&config=…, not mooring://${url.hostname}${url.pathname}`;
    return { source: 'mooring', name: url.searchParams.get('name'), config: url.searchParams.get('config') };
  }
  if (scheme === 'cursor') {
    if (url.hostname !== 'anysphere.cursor-deeplink' || url.pathname !== '/mcp/install')
      return 'this Cursor link is not an MCP install link (cursor://anysphere.cursor-deeplink/mcp/install?…)';
    return { source: 'cursor', name: url.searchParams.get('name'), config: url.searchParams.get('config') };
  }
  if (scheme === 'vscode' || scheme === 'vscode-insiders') {
    if (url.pathname !== 'mcp/install')
      return 'this VS Code link is not an MCP install link (vscode:mcp/install?…)';
    let json: string;
    try {
      json = decodeURIComponent(url.search.slice(1));
    } catch {
      return 'the link’s configuration is not correctly URL-encoded';
    }
    return { source: 'vscode', json };
  }
  return `links of the kind "${scheme}:" are not install links; Mooring reads mooring://, cursor:// and vscode: install links`;
}

/** The document importFormats reads for each source: one entry, in that product's file format. */
function asDocument(
  source: InstallLinkSource,
  name: string,
  entry: Record<string, unknown>,
): Record<string, unknown> {
  if (source === 'mooring') return { servers: [{ ...entry, name }] };
  if (source === 'cursor') return { mcpServers: { [name]: entry } };
  return { servers: { [name]: entry } };
}

export function parseInstallLink(raw: string): InstallLinkResult {
  if (typeof raw !== 'string' || raw.length === 0) return fail('the install link is empty');
  if (raw.length > MAX_INSTALL_LINK_LENGTH)
    return fail(
      `the install link is ${raw.length} characters long; Mooring reads at most ${MAX_INSTALL_LINK_LENGTH}`,
    );
  const parts = split(raw.trim());
  if (typeof parts === 'string') return fail(parts);

  let entry: unknown;
  let name: unknown;
  if (parts.source === 'vscode') {
    const parsed = parseJson(parts.json ?? '', 'the link’s configuration');
    if ('error' in parsed) return fail(parsed.error);
    if (!isObject(parsed.value)) return fail('the link’s configuration must be a JSON object');
    const { name: n, ...rest } = parsed.value;
    name = n;
    entry = rest;
  } else {
    if (!parts.config) return fail('the link has no config= parameter (the server’s configuration)');
    const text = decodeBase64(parts.config);
    if (text === undefined) return fail('the link’s config= parameter is not base64');
    const parsed = parseJson(text, 'the link’s configuration');
    if ('error' in parsed) return fail(parsed.error);
    entry = parsed.value;
    name = parts.name ?? (isObject(entry) ? entry.name : undefined);
    if (isObject(entry) && 'name' in entry) {
      const { name: _ignored, ...rest } = entry;
      entry = rest;
    }
  }
  if (!isObject(entry)) return fail('the link’s configuration must be a JSON object');
  if (typeof name !== 'string' || name.trim() === '') return fail('the link does not name the server');

  const document = asDocument(parts.source, name.trim(), entry);
  try {
    const result = parseImport(JSON.stringify(document), { fileName: 'the install link' });
    const server = result.servers[0];
    if (!server || result.servers.length !== 1) return fail('the link must carry exactly one server');
    // A link cannot declare VS Code `inputs`; each one it uses is named once below instead.
    const warnings = result.warnings.filter((w) => !/but not declared in "inputs"$/.test(w));
    for (const d of Object.values(result.dropped).flat())
      warnings.push(`${d.text}: a link never sets this; turn it on yourself after installing, if you must`);
    for (const input of result.inputs)
      warnings.push(
        `"\${input:${input.id}}" must be filled in before the server can start${input.password ? ' (a secret)' : ''}`,
      );
    const renamed = result.renamed[0];
    return {
      ok: true,
      source: parts.source,
      server,
      ...(renamed ? { renamedFrom: renamed.from } : {}),
      warnings: warnings.map((w) => w.replace(/^(mcpServers|servers)(\[\d+\]|\.[\w-]+|\["[^"]*"\]): /, '')),
    };
  } catch (err) {
    if (err instanceof ConfigInvalidError)
      return fail(
        err.issues
          .map((i) => {
            const field = i.path.replace(/^(mcpServers|servers)(\[\d+\]|\.[\w-]+|\["[^"]*"\])\.?/, '');
            return field ? `${field}: ${i.message}` : i.message;
          })
          .join('; '),
      );
    throw err;
  }
}
