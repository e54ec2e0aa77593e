// What an imported server may do, for the person who consents to the import (README, "Safety"), and
// what an import can never carry. A file from elsewhere must not widen what a server may do behind the
// command line the user reads: `trust` (a command outside the runtime allowlist), the `trust-all` policy
// (every tool without approval), `allowPrivateNetwork` and `allowLinkLocalHosts` (addresses the SSRF guard
// blocks), and `<keychain>` references (a secret some other server saved under that name) are dropped
// from every entry, and the consent says so; the user turns them on afterwards, one server at a time.
// Everything else that widens what a server may do beyond its command (working directory, environment,
// headers, a non-default policy) is listed by name for the consent, never by value.
import type { ServerConfig } from '@shared/config';
import type { ImportDropped, ImportGrant } from '@shared/importConsent';
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
        text: `${map === 'env' ? 'environment variable' : 'header'} ${k} from the keychain (set its value yourself)`,
      });
  }
  return { entry, dropped };
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
