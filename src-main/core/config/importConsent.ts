// What an imported server may do, for the person who consents to the import (README, "Safety"), and
// what an import can never carry. A file from elsewhere must not widen what a server may do behind the
// command line the user reads: `trust` (a command outside the runtime allowlist), the `trust-all` policy
// (every tool without approval), `allowPrivateNetwork` and `allowLinkLocalHosts` (addresses the SSRF guard
// blocks), a sampling budget above the default (more of the user's model), and `<keychain>` references (a
// secret some other server saved under that name) are dropped
// from every entry, and the consent says so; the user turns them on afterwards, one server at a time.
// Everything else that widens what a server may do beyond its command (working directory, environment,
// headers, a non-default policy) is listed by name for the consent, never by value.
//
// A project folder's server files (.vscode/mcp.json, .cursor/mcp.json, .mcp.json, .mooring/mcp_servers.json)
// come from a cloned repository just as much: the same rule holds them back (`serverConsent`), and the
// approval shows the held-back settings, which run only when the person allows them explicitly.
import { DEFAULT_SAMPLING_TOKENS_PER_HOUR, ServerConfigSchema, type ServerConfig } from '@shared/config';
import type { ConfigVariable, ImportDropped, ImportGrant } from '@shared/importConsent';
import { configVariables, heldVariableNames } from '../secrets/configVariables';
import { KEYCHAIN_REF } from '../secrets/serverSecrets';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The entry without the settings an import never carries, and a note for each one it had. Works on the
 * raw entry, before validation, so a setting this version does not know yet is dropped all the same.
 */
export function withoutNeverImported(raw: Record<string, unknown>): {
  entry: Record<string, unknown>;
  dropped: ImportDropped[];
} {
  const entry: Record<string, unknown> = { ...raw };
  const dropped: ImportDropped[] = [];
  // What a consent holds back is the consent's to say (`withHeldVariables`), never the file's.
  delete entry.heldVariables;
  if ('trust' in entry) {
    if (entry.trust === true)
      dropped.push({
        field: 'trust',
        text: 'trust (run a command outside the runtime allowlist)',
      });
    delete entry.trust;
  }
  if (entry.policy === 'trust-all') {
    dropped.push({ field: 'policy', text: 'policy "trust-all" (every tool runs without asking)' });
    delete entry.policy;
  }
  if ('allowPrivateNetwork' in entry) {
    if (entry.allowPrivateNetwork === true)
      dropped.push({
        field: 'allowPrivateNetwork',
        text: 'allowPrivateNetwork (reach private and loopback addresses)',
      });
    delete entry.allowPrivateNetwork;
  }
  if ('allowLinkLocalHosts' in entry) {
    const hosts = Array.isArray(entry.allowLinkLocalHosts) ? entry.allowLinkLocalHosts : [];
    if (hosts.length)
      dropped.push({
        field: 'allowLinkLocalHosts',
        text: `allowLinkLocalHosts (reach ${hosts.map(String).join(', ')}: link-local or cloud metadata addresses)`,
      });
    delete entry.allowLinkLocalHosts;
  }
  // The person's own choices for their machine, and where an install came from: never a file's to say.
  if ('runUnconfinedIfUnavailable' in entry) {
    if (entry.runUnconfinedIfUnavailable === true)
      dropped.push({
        field: 'runUnconfinedIfUnavailable',
        text: 'runUnconfinedIfUnavailable (start unconfined where confinement cannot run)',
      });
    delete entry.runUnconfinedIfUnavailable;
  }
  if ('origin' in entry) {
    dropped.push({ field: 'origin', text: 'origin (which registry entry it was installed from)' });
    delete entry.origin;
  }
  if ('samplingTokensPerHour' in entry) {
    const budget = entry.samplingTokensPerHour;
    if (typeof budget !== 'number' || budget > DEFAULT_SAMPLING_TOKENS_PER_HOUR) {
      dropped.push({
        field: 'samplingTokensPerHour',
        text: `samplingTokensPerHour ${String(budget)} (more of your model's tokens an hour than the default ${DEFAULT_SAMPLING_TOKENS_PER_HOUR})`,
      });
      delete entry.samplingTokensPerHour;
    }
  }
  for (const [map, list] of [
    ['env', 'secretEnv'],
    ['headers', 'secretHeaders'],
  ] as const) {
    const values = entry[map];
    if (!isObject(values)) continue;
    const refs = Object.keys(values).filter((k) => values[k] === KEYCHAIN_REF);
    if (!refs.length) continue;
    entry[map] = Object.fromEntries(Object.entries(values).filter(([k]) => !refs.includes(k)));
    if (Array.isArray(entry[list])) entry[list] = entry[list].filter((k) => !refs.includes(String(k)));
    for (const k of refs)
      dropped.push({
        field: map,
        text: `${map === 'env' ? 'environment variable' : 'header'} ${k} from the keychain (the secret saved for a server named "${String(entry.name)}"; set a value of its own instead)`,
      });
  }
  return { entry, dropped };
}

/** What a consent to one server shows, and what runs unless the person allows more. */
export interface ServerConsent {
  /** The server without the settings a file from elsewhere never grants by itself. */
  safe: ServerConfig;
  /** What `safe` may do beyond its command line or URL (names, never values). */
  grants: ImportGrant[];
  /** The settings the entry had that `safe` leaves out; each one only with the person's explicit yes. */
  heldBack: ImportDropped[];
  /** Every variable it refers to and where its value goes; secret ones for a remote server held unless allowed. */
  variables: ConfigVariable[];
}

/**
 * A parsed server split by the import's rule: the one function the import consent's rule and a project
 * folder's approval both go through, so the two can never disagree on what a file may widen.
 */
export function serverConsent(
  config: ServerConfig,
  opts: { allowedVariables?: readonly string[] } = {},
): ServerConsent {
  const { entry, dropped } = withoutNeverImported(config);
  const safe = withHeldVariables(ServerConfigSchema.parse(entry), opts.allowedVariables);
  return {
    safe,
    grants: importGrants(safe),
    heldBack: dropped,
    variables: configVariables(safe, { allowed: opts.allowedVariables ?? [] }),
  };
}

/**
 * The server with `heldVariables` set by the consent: the secret-looking variables its remote URL and
 * headers refer to that the person did not allow for it (docs/config-variables.md). Empty: no field.
 */
export function withHeldVariables(config: ServerConfig, allowed: readonly string[] = []): ServerConfig {
  const { heldVariables: _ignored, ...rest } = config;
  const held = heldVariableNames(rest, { allowed });
  return held.length ? { ...rest, heldVariables: held } : rest;
}

/** Everything beyond the command line or URL that widens what this server may do, names only. */
export function importGrants(config: ServerConfig): ImportGrant[] {
  const grants: ImportGrant[] = [];
  if (config.cwd) grants.push({ field: 'cwd', text: `working directory: ${config.cwd}` });
  if (config.workspaceFolder)
    grants.push({
      field: 'workspaceFolder',
      text: `\${workspaceFolder} at start: ${config.workspaceFolder}`,
    });
  const env = Object.keys(config.env);
  if (env.length) grants.push({ field: 'env', text: `environment variables: ${env.join(', ')}` });
  const headers = Object.keys(config.headers);
  if (headers.length) grants.push({ field: 'headers', text: `headers sent: ${headers.join(', ')}` });
  if (config.policy !== 'default')
    grants.push({ field: 'policy', text: `approval policy: ${config.policy}` });
  // Never true after an import (dropped above); listed should that ever change, so nothing is silent.
  if (config.trust) grants.push({ field: 'trust', text: 'trusted: may run a command outside the allowlist' });
  if (config.allowPrivateNetwork)
    grants.push({ field: 'allowPrivateNetwork', text: 'may reach private and loopback addresses' });
  return grants;
}
