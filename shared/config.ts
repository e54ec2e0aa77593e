// The contract of mcp_servers.json (docs/data-on-disk.md, "Data on disk") and its server entries.
// Pure zod: the renderer's forms validate with the very same schema the core writes with.
import { z } from 'zod';
import { SandboxSettingsSchema } from './confinement';
import { LogLevelSchema } from './settings';
import {
  isLocalTransport,
  isRemoteTransport,
  TRANSPORT_KINDS,
  type LocalTransportKind,
  type RemoteTransportKind,
  type TransportKind,
} from './transports';

export type { TransportKind };

export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const DEFAULT_TIMEOUT_SECONDS = 180;
/**
 * The cap on one message from a stdio server (32 MB): room for results the large-result path pages for the
 * model (docs/chat.md, "Results too large for the model"); one server may lower or raise it.
 */
export const DEFAULT_MAX_MESSAGE_MB = 32;
export const MAX_MESSAGE_MB = 64;
export const MAX_TIMEOUT_SECONDS = 600;
/** A server may spend this many tokens of the user's model an hour on sampling unless told otherwise. */
export const DEFAULT_SAMPLING_TOKENS_PER_HOUR = 20_000;
export const MAX_SAMPLING_TOKENS_PER_HOUR = 10_000_000;

export const TransportSchema = z.enum(TRANSPORT_KINDS);

/** Per-server approval policy; `default` follows the tool's annotations. */
export const ServerPolicySchema = z.enum(['default', 'always-ask', 'auto-read-only', 'trust-all']);
export type ServerPolicy = z.infer<typeof ServerPolicySchema>;

const stringMap = z.record(z.string(), z.string());

export const ServerNameSchema = z
  .string()
  .regex(SERVER_NAME_PATTERN, 'must be 1–64 characters of letters, digits, "_" or "-"');

export const ServerConfigSchema = z
  .object({
    name: ServerNameSchema,
    transport: TransportSchema.default('stdio'),
    command: z.string().min(1, 'must not be empty').optional(),
    args: z.array(z.string()).default([]),
    /** Plain values, or `${env:NAME}` references resolved from Mooring's own environment at start. */
    env: stringMap.default({}),
    cwd: z.string().optional(),
    /**
     * The folder VS Code's `${workspaceFolder}` stands for when this server starts outside a project folder:
     * an import of `<folder>/.vscode/mcp.json` sets it to `<folder>`.
     */
    workspaceFolder: z.string().optional(),
    url: z.string().url('must be a full URL such as https://example.com/mcp').optional(),
    headers: stringMap.default({}),
    /** Names in `env` whose values live in the OS keychain; the file never holds them. */
    secretEnv: z.array(z.string()).default([]),
    /** Names in `headers` whose values live in the OS keychain. */
    secretHeaders: z.array(z.string()).default([]),
    enabled: z.boolean().default(true),
    timeoutSeconds: z
      .number()
      .int('must be a whole number of seconds')
      .min(1, 'must be at least 1 second')
      .max(MAX_TIMEOUT_SECONDS, `must be at most ${MAX_TIMEOUT_SECONDS} seconds`)
      .default(DEFAULT_TIMEOUT_SECONDS),
    /** Cap on one stdio message, in MB: a larger line is dropped and the call it answered fails clearly. */
    maxMessageMB: z
      .number()
      .min(1, 'must be at least 1 MB')
      .max(MAX_MESSAGE_MB, `must be at most ${MAX_MESSAGE_MB} MB`)
      .default(DEFAULT_MAX_MESSAGE_MB),
    /** A trusted server may run a command outside the runtime allowlist. */
    trust: z.boolean().default(false),
    policy: ServerPolicySchema.default('default'),
    /** Tool filters: when `includeTools` is set only those run; `excludeTools` always wins. */
    includeTools: z.array(z.string()).optional(),
    excludeTools: z.array(z.string()).default([]),
    /** Allow an http/sse server to reach private or loopback addresses through a hostname (not link-local). */
    allowPrivateNetwork: z.boolean().default(false),
    /**
     * The link-local or cloud instance-metadata addresses and host names (each named exactly, e.g.
     * "169.254.169.254") this server may reach; `allowPrivateNetwork` never opens them. Not for imports to
     * carry: the user sets it, one server at a time.
     */
    allowLinkLocalHosts: z.array(z.string().min(1, 'must not be empty')).optional(),
    /**
     * Tokens of the user's model this server may spend on sampling in any hour (MCP 2025-11-25 "Sampling";
     * default 20,000); 0 refuses every sampling request. An import never raises it above the default.
     */
    samplingTokensPerHour: z
      .number()
      .int('must be a whole number of tokens')
      .min(0, 'must be at least 0')
      .max(MAX_SAMPLING_TOKENS_PER_HOUR, `must be at most ${MAX_SAMPLING_TOKENS_PER_HOUR}`)
      .optional(),
    /** The level this server logs at (one of the eight MCP levels); default: the settings' logLevel. */
    logLevel: LogLevelSchema.optional(),
    /**
     * Run this stdio server confined (docs/confinement.md): it writes only where `sandbox` allows and reaches
     * only the hosts it lists. VS Code's field of the same name; where confinement cannot run, it does not start.
     */
    sandboxEnabled: z.boolean().optional(),
    /** What a confined server may write and reach, in VS Code's shape. */
    sandbox: SandboxSettingsSchema.optional(),
    /**
     * Where confinement cannot run (Windows, no bubblewrap), start it unconfined instead of refusing: the
     * user's choice for this server, never an import's.
     */
    runUnconfinedIfUnavailable: z.boolean().optional(),
    /** Where an install came from, for the managed policy's registry rules; set by an install, never by an import. */
    origin: z
      .object({
        kind: z.enum(['registry', 'bundle', 'link']),
        /** The registry's name for it (`io.github.owner/server`). */
        name: z.string().max(200).optional(),
        registry: z.string().max(2000).optional(),
        version: z.string().max(200).optional(),
      })
      .strict()
      .optional(),
    /**
     * Environment variables this remote server's URL and headers may not expand: secret-looking ones an
     * import or a project folder's approval did not allow for it (docs/config-variables.md). Set by the
     * consent, whatever a file says.
     */
    heldVariables: z.array(z.string().max(200)).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (isLocalTransport(s.transport)) {
      if (!s.command)
        ctx.addIssue({ code: 'custom', path: ['command'], message: 'a stdio server needs a command' });
      if (s.url)
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'a stdio server takes a command, not a url' });
    } else {
      if (!s.url)
        ctx.addIssue({ code: 'custom', path: ['url'], message: `an ${s.transport} server needs a url` });
      else if (!/^https?:\/\//i.test(s.url))
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'must start with http:// or https://' });
      if (s.command)
        ctx.addIssue({
          code: 'custom',
          path: ['command'],
          message: `an ${s.transport} server takes a url, not a command`,
        });
    }
    if (s.transport !== 'stdio' && s.sandboxEnabled)
      ctx.addIssue({
        code: 'custom',
        path: ['sandboxEnabled'],
        message: 'only a stdio server runs on this machine and can be confined',
      });
    for (const k of s.secretEnv)
      if (!(k in s.env))
        ctx.addIssue({ code: 'custom', path: ['secretEnv'], message: `"${k}" is not a key of env` });
    for (const k of s.secretHeaders)
      if (!(k in s.headers))
        ctx.addIssue({ code: 'custom', path: ['secretHeaders'], message: `"${k}" is not a key of headers` });
  });

export type ServerConfig = z.infer<typeof ServerConfigSchema>;
export type ServerConfigInput = z.input<typeof ServerConfigSchema>;

/** A server reached over the network: its URL is known (the schema requires it for these kinds). */
export type RemoteServerConfig = ServerConfig & { transport: RemoteTransportKind; url: string };
/** A server Mooring runs as a local process: its command is known. */
export type LocalServerConfig = ServerConfig & { transport: LocalTransportKind; command: string };

/** Whether `config` is reached over the network (narrows it: `url` is a string). */
export function isRemoteServer<C extends Pick<ServerConfig, 'transport' | 'url'>>(
  config: C,
): config is C & { transport: RemoteTransportKind; url: string } {
  return isRemoteTransport(config.transport) && typeof config.url === 'string';
}

/** Whether `config` runs a local process (narrows it: `command` is a string). */
export function isLocalServer<C extends Pick<ServerConfig, 'transport' | 'command'>>(
  config: C,
): config is C & { transport: LocalTransportKind; command: string } {
  return isLocalTransport(config.transport) && typeof config.command === 'string';
}

export const ServersFileSchema = z
  .object({ servers: z.array(ServerConfigSchema).default([]) })
  .strict()
  .superRefine((f, ctx) => {
    const seen = new Map<string, number>();
    f.servers.forEach((s, i) => {
      const prev = seen.get(s.name);
      if (prev !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['servers', i, 'name'],
          message: `duplicate server name "${s.name}" (also at servers[${prev}]); names must be unique`,
        });
      else seen.set(s.name, i);
    });
  });

export type ServersFile = z.infer<typeof ServersFileSchema>;
