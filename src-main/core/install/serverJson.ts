// A registry entry's `server.json` (the MCP Registry's server.json format, docs/reference/server-json in
// the registry's repository), read as untrusted input: every field Mooring uses is type-checked, every
// identifier that reaches a command line or a URL is matched against what its registry allows, and text
// the user reads (title, description) is capped. Unknown fields are ignored; a field of the wrong type
// makes the whole entry unusable, with a reason.
import { z } from 'zod';

/** Registry names: reverse-DNS namespace, one slash, server name (the format's `name` pattern). */
export const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
export const MAX_REGISTRY_NAME = 200;
/** A version as it may appear after `@` or `==` on a command line: no spaces, no shell characters. */
export const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,127}$/;
export const NPM_IDENTIFIER = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/;
export const PYPI_IDENTIFIER = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** `[host[:port]/]path[:tag][@sha256:…]`, the OCI reference grammar without its rarer corners. */
export const OCI_IDENTIFIER =
  /^(?:[a-z0-9.-]+(?::[0-9]{1,5})?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** A named argument: `--flag` or `-f`, nothing a shell or a parser would read as more. */
export const FLAG_NAME = /^--?[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Control, format (bidi, zero-width) and separator characters: never in a value that reaches a command. */
export const UNSAFE_IN_VALUE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
/** Mooring's own references: a registry value holding one would read Mooring's environment or keychain. */
export { MOORING_REFERENCE } from '../secrets/configVariables';

/** How much of a description or title a summary keeps. */
export const MAX_DESCRIPTION_CHARS = 400;
export const MAX_TITLE_CHARS = 100;
/** Values longer than this are not a configuration anyone needs. */
const MAX_VALUE = 4096;

const text = z.string().max(MAX_VALUE);

const InputFields = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  default: text.optional(),
  value: text.optional(),
  placeholder: z.string().optional(),
  choices: z.array(text).max(100).optional(),
  format: z.string().optional(),
};
export const RegistryInputSchema = z.looseObject({
  ...InputFields,
  variables: z.record(z.string(), z.looseObject(InputFields)).optional(),
});
export type RegistryInput = z.infer<typeof RegistryInputSchema>;

export const KeyValueInputSchema = RegistryInputSchema.extend({ name: z.string().max(256) });
export type KeyValueInput = z.infer<typeof KeyValueInputSchema>;

export const ArgumentSchema = RegistryInputSchema.extend({
  type: z.string(),
  name: z.string().max(256).optional(),
  valueHint: z.string().max(256).optional(),
  isRepeated: z.boolean().optional(),
});
export type RegistryArgument = z.infer<typeof ArgumentSchema>;

const TransportSchema = z.looseObject({
  type: z.string(),
  url: z.string().max(MAX_VALUE).optional(),
  headers: z.array(KeyValueInputSchema).max(64).optional(),
});

export const PackageSchema = z.looseObject({
  registryType: z.string().max(64),
  registryBaseUrl: z.string().max(MAX_VALUE).optional(),
  identifier: z.string().max(MAX_VALUE),
  version: z.string().max(256).optional(),
  fileSha256: z.string().max(64).optional(),
  runtimeHint: z.string().max(64).optional(),
  transport: TransportSchema.optional(),
  runtimeArguments: z.array(ArgumentSchema).max(64).optional(),
  packageArguments: z.array(ArgumentSchema).max(64).optional(),
  environmentVariables: z.array(KeyValueInputSchema).max(64).optional(),
});
export type RegistryPackage = z.infer<typeof PackageSchema>;

export const RemoteSchema = TransportSchema.extend({
  variables: z.record(z.string(), z.looseObject(InputFields)).optional(),
});
export type RegistryRemote = z.infer<typeof RemoteSchema>;

export const ServerJsonSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().default(''),
  version: z.string(),
  websiteUrl: z.string().max(MAX_VALUE).optional(),
  repository: z
    .looseObject({ url: z.string().max(MAX_VALUE).optional(), source: z.string().optional() })
    .optional(),
  packages: z.array(PackageSchema).max(32).optional(),
  remotes: z.array(RemoteSchema).max(32).optional(),
});
export type ServerJson = z.infer<typeof ServerJsonSchema>;

/** `text` cut to `max` characters (a long description is a registry's problem, not the screen's). */
export function clip(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** An http(s) URL without credentials, or undefined (a link the UI may offer to open). */
export function safeLink(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const u = new URL(value);
    if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) return undefined;
    if (UNSAFE_IN_VALUE.test(value)) return undefined;
    return u.toString();
  } catch {
    return undefined;
  }
}

/** The server.json of one entry of a registry answer (`{server, _meta}`, or a bare server.json), or why not. */
export function readServerJson(
  entry: unknown,
): { ok: true; server: ServerJson } | { ok: false; error: string } {
  const raw =
    typeof entry === 'object' && entry !== null && 'server' in entry
      ? (entry as { server: unknown }).server
      : entry;
  const parsed = ServerJsonSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the entry';
    return { ok: false, error: `${where}: ${issue?.message ?? 'not a server.json'}` };
  }
  const s = parsed.data;
  if (s.name.length > MAX_REGISTRY_NAME || !REGISTRY_NAME.test(s.name))
    return {
      ok: false,
      error: 'its name is not a registry name (namespace/server of letters, digits, ".", "_", "-")',
    };
  if (!VERSION.test(s.version)) return { ok: false, error: `${s.name}: its version is not a plain version` };
  return { ok: true, server: s };
}

/** Whether the registry marks this entry as its latest version (entries without the mark count as latest). */
export function isLatestEntry(entry: unknown): boolean {
  const meta = (entry as { _meta?: Record<string, unknown> } | null)?._meta;
  const official = meta?.['io.modelcontextprotocol.registry/official'] as { isLatest?: unknown } | undefined;
  return official?.isLatest !== false;
}
