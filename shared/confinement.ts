// What a confined stdio server may touch (docs/confinement.md): the `sandbox` block of a server entry, in
// VS Code's shape so a VS Code mcp.json imports with its confinement and Mooring's own file reads the same
// fields; the runtime profiles an install starts from; the one-line summary every consent screen shows;
// the refused accesses ("violations") as the UI and the CLI see them. Pure: the renderer's form and the
// core use the same functions.
import { z } from 'zod';

/** An absolute path, or one under the user's home (`~`, `~/…`). Relative paths have no meaning here. */
export const SandboxPathSchema = z
  .string()
  .min(1, 'must not be empty')
  .refine((p) => p === '~' || p.startsWith('~/') || p.startsWith('/'), {
    message: 'must be an absolute path or start with ~/',
  })
  .refine((p) => !/[\0\r\n]/.test(p), { message: 'must be one line' });

/**
 * A host a confined server may reach: `example.com`, `*.example.com` (any subdomain, not the apex),
 * `localhost`, an IPv4 address or `[IPv6]`, each optionally with `:port`. Loopback is reachable only when
 * named (`localhost`, `127.0.0.1`, `[::1]`); a wildcard never covers it.
 */
export const DOMAIN_PATTERN =
  /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/i;

export const SandboxDomainSchema = z
  .string()
  .min(1, 'must not be empty')
  .transform((d) => d.trim().toLowerCase())
  .refine((d) => DOMAIN_PATTERN.test(d) && portOk(d), {
    message: 'must be a host name such as example.com or *.example.com, optionally with :port',
  });

function portOk(domain: string): boolean {
  const m = /:(\d+)$/.exec(domain.replace(/^\[[^\]]*\]/, ''));
  return !m || (Number(m[1]) >= 1 && Number(m[1]) <= 65535);
}

export const SandboxSettingsSchema = z
  .object({
    filesystem: z
      .object({
        /** Where it may write (and create); everything else is read-only. */
        allowWrite: z.array(SandboxPathSchema).optional(),
        /** What it may not read (nor write); a floor of credential folders is always added. */
        denyRead: z.array(SandboxPathSchema).optional(),
        /** What it may not write even inside an allowWrite path. */
        denyWrite: z.array(SandboxPathSchema).optional(),
      })
      .strict()
      .optional(),
    network: z
      .object({
        /** The only hosts it may reach, through Mooring's proxy; none means no network at all. */
        allowedDomains: z.array(SandboxDomainSchema).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;

/** The runtimes whose needs Mooring knows (docs/confinement.md, "Profiles"). */
export type SandboxProfileKind = 'npx' | 'uvx' | 'bundle' | 'plain';

/** Which profile a command line starts from: npx-like runners, uvx-like runners, or none. */
export function profileKindOf(command: string | undefined, args: readonly string[] = []): SandboxProfileKind {
  const base = (command ?? '').split(/[\\/]/).pop()!.toLowerCase();
  if (/^(npx|bunx|pnpx)(\.cmd|\.exe)?$/.test(base)) return 'npx';
  if (/^(npm|pnpm)(\.cmd)?$/.test(base) && (args[0] === 'exec' || args[0] === 'dlx')) return 'npx';
  if (/^uvx(\.exe)?$/.test(base) || (/^uv(\.exe)?$/.test(base) && (args[0] === 'tool' || args[0] === 'run')))
    return 'uvx';
  return 'plain';
}

/**
 * A runtime's profile: what a server of that kind needs to start and run. npx: its npm cache and the npm
 * registry; uvx: its caches and PyPI; a bundle: its own folder. `plain` writes nowhere and reaches nothing
 * (a private temporary folder is always given, see docs/confinement.md).
 */
export function sandboxProfile(
  kind: SandboxProfileKind,
  ctx: { platform?: string; bundleDir?: string } = {},
): SandboxSettings {
  const mac = ctx.platform === 'darwin';
  switch (kind) {
    case 'npx':
      return {
        filesystem: { allowWrite: ['~/.npm'] },
        network: { allowedDomains: ['registry.npmjs.org'] },
      };
    case 'uvx':
      return {
        filesystem: {
          allowWrite: mac
            ? ['~/Library/Caches/uv', '~/.local/share/uv']
            : ['~/.cache/uv', '~/.local/share/uv'],
        },
        network: { allowedDomains: ['pypi.org', 'files.pythonhosted.org'] },
      };
    case 'bundle':
      return { filesystem: { allowWrite: ctx.bundleDir ? [ctx.bundleDir] : [] } };
    case 'plain':
      return {};
  }
}

/** Two sandbox blocks as one: every list the union of both, in order, without repeats. */
export function mergeSandbox(...blocks: Array<SandboxSettings | undefined>): SandboxSettings {
  const list = (pick: (b: SandboxSettings) => string[] | undefined) => {
    const all = [...new Set(blocks.flatMap((b) => (b ? (pick(b) ?? []) : [])))];
    return all.length ? all : undefined;
  };
  const allowWrite = list((b) => b.filesystem?.allowWrite);
  const denyRead = list((b) => b.filesystem?.denyRead);
  const denyWrite = list((b) => b.filesystem?.denyWrite);
  const allowedDomains = list((b) => b.network?.allowedDomains);
  const fs = {
    ...(allowWrite ? { allowWrite } : {}),
    ...(denyRead ? { denyRead } : {}),
    ...(denyWrite ? { denyWrite } : {}),
  };
  return {
    ...(Object.keys(fs).length ? { filesystem: fs } : {}),
    ...(allowedDomains ? { network: { allowedDomains } } : {}),
  };
}

const listed = (items: readonly string[], most = 3) =>
  items.length <= most
    ? items.join(', ')
    : `${items.slice(0, most).join(', ')} and ${items.length - most} more`;

/**
 * The one line every consent screen shows (add, import, link, registry, bundle, project folder): what the
 * server will be able to write and reach, or that it runs unconfined.
 */
export function confinementSummary(server: {
  transport?: string;
  sandboxEnabled?: boolean | undefined;
  sandbox?: SandboxSettings | undefined;
}): string {
  if (server.transport && server.transport !== 'stdio')
    return 'Remote server: it runs elsewhere; Mooring reaches it over the network only.';
  if (!server.sandboxEnabled)
    return 'Runs unconfined: it can read and write everything you can and reach any host.';
  const writes = server.sandbox?.filesystem?.allowWrite ?? [];
  const domains = server.sandbox?.network?.allowedDomains ?? [];
  const w = writes.length
    ? `writes only to ${listed(writes)}`
    : 'writes nowhere but its own temporary folder';
  const n = domains.length ? `reaches only ${listed(domains)}` : 'reaches no network';
  return `Runs confined: ${w}; ${n}.`;
}

/** One refused access of a confined server, as recorded (docs/confinement.md, "Refused accesses"). */
export interface SandboxViolation {
  server: string;
  /** `read` and `write`: a file access; `network`: a connection or a proxied request. */
  kind: 'read' | 'write' | 'network';
  /** The path, or `host:port`. Read from the confined process: untrusted text, shown as text. */
  target: string;
  /** What it tried, in words: "open for writing", "create a folder", "connect", "a request through the proxy". */
  operation: string;
  /** How many times since `first`. */
  count: number;
  /** First and last time (ms since the epoch). */
  first: number;
  last: number;
  /** The one-click answer: the path to add to allowWrite or the host to add to allowedDomains. */
  allow?: { write?: string; domain?: string };
  /** Why there is no one-click answer (a folder every confined server is kept from, the managed policy). */
  noAllowReason?: string;
}

/** A server's confinement as the server card and `mooring mcp sandbox --show` see it. */
export interface ConfinementView {
  state: 'confined' | 'unconfined' | 'unavailable' | 'remote';
  /** The consent line (confinementSummary) for this server. */
  summary: string;
  /** Refused accesses recorded for it (all processes on this home). */
  violations: number;
  /** Why confinement cannot run here, and what to install (state `unavailable`). */
  reason?: string;
  hint?: string;
  /** Whether refused file accesses are observed here (Linux: strace), else only proxy refusals. */
  observesFiles?: boolean;
  /** The managed policy requires confinement: the user cannot turn it off. */
  required?: boolean;
}
