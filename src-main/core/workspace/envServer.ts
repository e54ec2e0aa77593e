// Quick configuration from the environment for headless use and scripts:
//   MOORING_MCP_SERVER_STDIO="command|arg1|arg2"   or   MOORING_MCP_SERVER_URL=https://…
// adds one server named `env` for this process only: it is never written to mcp_servers.json, and every
// log line that mentions it is masked (URLs down to scheme and host; secret-looking arguments hidden).
import { ServerConfigSchema, type ServerConfig } from '@shared/config';
import { describeZodIssue, formatPath } from '../config/jsonDiagnostics';
import { inferTransport } from '../config/importEntry';
import { MooringError } from '../errors';
import { redactText } from '../safety/redact';
import { maskArgs, maskUrl, MASK } from '../secrets/serverSecrets';

export const ENV_SERVER_NAME = 'env';
export const ENV_STDIO = 'MOORING_MCP_SERVER_STDIO';
export const ENV_URL = 'MOORING_MCP_SERVER_URL';

const STDIO_HINT = `Set ${ENV_STDIO} to the command and its arguments separated by "|", e.g. ${ENV_STDIO}="npx|-y|@modelcontextprotocol/server-everything"`;
const URL_HINT = `Set ${ENV_URL} to the server's full URL, e.g. ${ENV_URL}=https://example.com/mcp`;

/**
 * The `env` server the environment describes, or null when neither variable is set. Throws `usage` when
 * both are set and `config_invalid` (naming the variable, never its value) when the value is unusable.
 */
export function envServer(env: NodeJS.ProcessEnv = process.env): ServerConfig | null {
  const stdio = env[ENV_STDIO]?.trim() ? env[ENV_STDIO] : undefined;
  const url = env[ENV_URL]?.trim() ? env[ENV_URL]!.trim() : undefined;
  if (stdio !== undefined && url !== undefined)
    throw new MooringError(
      'usage',
      `Both ${ENV_STDIO} and ${ENV_URL} are set; the quick configuration takes one server.`,
      `Unset one of them, or add the servers for good with: mooring mcp add`,
    );
  if (stdio !== undefined) {
    // "|" separates, so an argument cannot contain one; split before trimming so arguments keep spaces.
    const [command = '', ...args] = stdio.split('|');
    if (!command.trim())
      throw new MooringError('config_invalid', `${ENV_STDIO} does not start with a command.`, STDIO_HINT);
    return validated({ name: ENV_SERVER_NAME, transport: 'stdio', command: command.trim(), args }, ENV_STDIO);
  }
  if (url !== undefined) {
    if (!/^https?:\/\//i.test(url))
      throw new MooringError('config_invalid', `${ENV_URL} must start with http:// or https://.`, URL_HINT);
    return validated({ name: ENV_SERVER_NAME, transport: inferTransport(url), url }, ENV_URL);
  }
  return null;
}

function validated(input: Record<string, unknown>, variable: string): ServerConfig {
  const result = ServerConfigSchema.safeParse(input);
  if (result.success) return result.data;
  // Messages name the field only: the value may hold a token and error text ends up in logs.
  const what = result.error.issues
    .flatMap(describeZodIssue)
    .map((d) => `${formatPath(d.path) || 'value'}: ${d.message}`)
    .join('; ');
  throw new MooringError(
    'config_invalid',
    `${variable} is not a usable server: ${what}`,
    variable === ENV_STDIO ? STDIO_HINT : URL_HINT,
  );
}

// Bare arguments that look like credentials even without a `--token` in front of them.
const TOKEN_PREFIX = /^(sk|pk|rk|ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abprs]|hf|AKIA)[-_]?[A-Za-z0-9]/;
const looksLikeToken = (arg: string) =>
  TOKEN_PREFIX.test(arg) ||
  (arg.length >= 24 && /^[A-Za-z0-9_\-+=]+$/.test(arg) && /[0-9]/.test(arg) && /[A-Za-z]/.test(arg));

/** The strings of a server's config that must never appear in a log line, each with its replacement. */
function secretsOf(server: ServerConfig): { needle: string; replacement: string }[] {
  const out: { needle: string; replacement: string }[] = [];
  if (server.url) {
    const hostOnly = maskUrl(server.url, { hostOnly: true });
    // The URL as configured, then its parts: a server or an SDK may log the path or query on their own.
    out.push({ needle: server.url, replacement: hostOnly });
    try {
      const u = new URL(server.url);
      out.push({ needle: u.href, replacement: hostOnly });
      if (u.password) out.push({ needle: decodeURIComponent(u.password), replacement: MASK });
      if (u.username) out.push({ needle: decodeURIComponent(u.username), replacement: MASK });
      for (const seg of u.pathname.split('/'))
        if (looksLikeToken(seg)) out.push({ needle: seg, replacement: MASK });
      for (const v of u.searchParams.values()) if (v.length >= 4) out.push({ needle: v, replacement: MASK });
    } catch {
      // an unparseable URL never validated, so it never reaches here
    }
  }
  const masked = maskArgs(server.args);
  server.args.forEach((arg, i) => {
    const inline = /^--?[\w.-]+=(.+)$/.exec(arg);
    if (masked[i] !== arg) out.push({ needle: inline ? inline[1]! : arg, replacement: MASK });
    else if (looksLikeToken(arg)) out.push({ needle: arg, replacement: MASK });
  });
  return out.filter((s) => s.needle.length >= 4);
}

/**
 * A masker for every log line of a process that runs the `env` server: the full URL becomes scheme and
 * host, secret-looking arguments `••••••`; the URL-encoded and base64 forms of each secret are caught too.
 */
export function logMasker(server: ServerConfig | null): (line: string) => string {
  if (!server) return (line) => line;
  // Longest first, so the full URL is replaced before its own path or query values are.
  const secrets = secretsOf(server).sort((a, b) => b.needle.length - a.needle.length);
  return (line) => {
    let out = line;
    for (const s of secrets) out = out.split(s.needle).join(s.replacement);
    return redactText(
      out,
      secrets.filter((s) => s.replacement === MASK).map((s) => s.needle),
    );
  };
}
