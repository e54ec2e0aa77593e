// One server's confinement as the sandbox builders need it (docs/confinement.md): its `sandbox` block with
// `~` expanded, the floor every confined server gets (credential folders and Mooring's own home unreadable),
// the managed policy's floor, and its network rules. Pure but for reading which floor paths exist and which
// entries the home holds.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, normalize, sep } from 'node:path';
import type { SandboxSettings } from '@shared/confinement';
import { loopbackPorts, parseDomainRule, type DomainRule } from './domainRules';

/** Where credentials live: unreadable for every confined server, whatever its own block says. */
export const CREDENTIAL_FLOOR = [
  '~/.ssh',
  '~/.gnupg',
  '~/.aws',
  '~/.azure',
  '~/.config/gcloud',
  '~/.kube',
  '~/.docker',
  '~/.netrc',
  '~/.git-credentials',
  '~/.config/gh',
  '~/.password-store',
  '~/.local/share/keyrings',
  '~/Library/Keychains',
  '~/Library/Cookies',
];

export interface ResolvedSandbox {
  /** Absolute paths it may write (its private temporary folder is added by the launcher). */
  allowWrite: string[];
  /** Absolute paths it may not write, even inside allowWrite. */
  denyWrite: string[];
  /** Absolute paths it may not read (nor write); only those that exist. */
  denyRead: string[];
  /** Which denyRead entries come from the floor or the managed policy (no one-click allow for those). */
  fixedDenyRead: string[];
  rules: DomainRule[];
  /** Loopback ports named with a port (`localhost:5432`): reachable directly, through a forwarder. */
  loopbackPorts: number[];
}

export interface ResolveContext {
  /** The home `~` stands for (the child's HOME). */
  userHome?: string;
  /** Mooring's home: unreadable but for `ownFolders`. */
  mooringHome: string;
  /** Folders inside Mooring's home this server may read (its bundle's folder). */
  ownFolders?: string[];
  /** The managed policy's floor (confinement.denyRead, denyWrite, allowedDomains). */
  managed?: { denyRead?: string[]; denyWrite?: string[]; allowedDomains?: string[] };
}

export function expandPath(p: string, userHome: string): string {
  if (p === '~') return userHome;
  if (p.startsWith('~/')) return normalize(join(userHome, p.slice(2)));
  return normalize(p);
}

const under = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);

export function resolveSandbox(sandbox: SandboxSettings | undefined, ctx: ResolveContext): ResolvedSandbox {
  const home = ctx.userHome ?? homedir();
  const exp = (list: readonly string[] | undefined) => [
    ...new Set((list ?? []).map((p) => expandPath(p, home))),
  ];
  const own = exp(ctx.ownFolders);
  const fixed = [
    ...exp(CREDENTIAL_FLOOR),
    ...exp(ctx.managed?.denyRead),
    ...homeExcept(normalize(ctx.mooringHome), own),
  ];
  const declared = exp(sandbox?.filesystem?.denyRead);
  const denyRead = [...new Set([...fixed, ...declared])].filter((p) => existsSync(p));
  const domains = [...(sandbox?.network?.allowedDomains ?? []), ...(ctx.managed?.allowedDomains ?? [])];
  const rules = [...new Set(domains)].map(parseDomainRule);
  return {
    allowWrite: exp(sandbox?.filesystem?.allowWrite),
    denyWrite: [...new Set([...exp(sandbox?.filesystem?.denyWrite), ...exp(ctx.managed?.denyWrite)])],
    denyRead,
    fixedDenyRead: fixed.filter((p) => denyRead.includes(p)),
    rules,
    loopbackPorts: loopbackPorts(rules),
  };
}

/**
 * Mooring's home as deny entries: the whole folder, or — when the server may read a folder inside it (its
 * bundle) — every entry on the way there but that folder, so its own files stay readable and nothing else.
 */
function homeExcept(home: string, own: string[]): string[] {
  const inside = own.filter((o) => under(o, home) && o !== home);
  if (!inside.length) return [home];
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e);
      if (inside.some((o) => o === p)) continue;
      if (inside.some((o) => under(o, p)) && isDir(p)) walk(p);
      else out.push(p);
    }
  };
  walk(home);
  return out;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `p` is inside (or is) one of `dirs`. */
export const isUnder = (p: string, dirs: readonly string[]) => dirs.some((d) => under(p, d));
