// The package vulnerability check: before a stdio server that runs a registry package through
// npx or uvx starts, ask OSV (https://google.github.io/osv.dev/post-v1-query/) about that package.
// A malicious-package advisory (OSV's MAL- ids, from the OpenSSF malicious-packages feed) blocks the start;
// ordinary vulnerabilities and an unreachable OSV only warn — a flaky network must not brick the app.
import type { ServerConfig } from '@shared/config';
import { MooringError } from '../errors';
import { packagesOf, type PackageRef } from './packageSpec';
import { isLocalTransport } from '@shared/transports';

export const DEFAULT_OSV_ENDPOINT = 'https://api.osv.dev/v1/query';
export const DEFAULT_OSV_TIMEOUT_MS = 4000;

export interface OsvOptions {
  /** The query endpoint (a setting); default https://api.osv.dev/v1/query. */
  endpoint?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

export interface OsvAdvisory {
  id: string;
  summary?: string;
  aliases?: string[];
}

export interface OsvFinding {
  package: PackageRef;
  advisories: OsvAdvisory[];
}

export interface OsvReport {
  /** The packages that were checked; empty (with `skipped`) for commands other than npx/uvx. */
  packages: PackageRef[];
  /** Vulnerable packages (not malicious), unreachable OSV, unparseable specs: show, do not block. */
  warnings: string[];
  findings: OsvFinding[];
  skipped?: string;
}

const label = (p: PackageRef) => `${p.name}${p.version ? `@${p.version}` : ''} (${p.ecosystem})`;
const isMalicious = (a: OsvAdvisory) =>
  a.id.startsWith('MAL-') || (a.aliases ?? []).some((x) => x.startsWith('MAL-'));

/** One OSV query (`POST {package:{name,ecosystem},version?}`); throws on network, HTTP or shape errors. */
export async function queryOsv(ref: PackageRef, opts: OsvOptions = {}): Promise<OsvAdvisory[]> {
  const doFetch = opts.fetch ?? fetch;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_OSV_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const body: Record<string, unknown> = { package: { name: ref.name, ecosystem: ref.ecosystem } };
  if (ref.version) body.version = ref.version;
  const res = await doFetch(opts.endpoint ?? DEFAULT_OSV_ENDPOINT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) throw new Error(`OSV answered HTTP ${res.status}`);
  const data = (await res.json()) as { vulns?: unknown };
  if (data.vulns === undefined) return [];
  if (!Array.isArray(data.vulns)) throw new Error('OSV answered without a vulns list');
  return data.vulns
    .filter(
      (v): v is OsvAdvisory =>
        typeof v === 'object' && v !== null && typeof (v as OsvAdvisory).id === 'string',
    )
    .map((v) => ({ id: v.id, summary: v.summary, aliases: Array.isArray(v.aliases) ? v.aliases : [] }));
}

/**
 * Checks every registry package a stdio server runs. Throws `vulnerable_package` when one is flagged as
 * malicious; otherwise returns the report whose warnings the UI shows next to the server.
 */
export async function checkServerPackages(
  config: Pick<ServerConfig, 'name' | 'transport' | 'command' | 'args'>,
  opts: OsvOptions = {},
): Promise<OsvReport> {
  if (!isLocalTransport(config.transport) || !config.command)
    return { packages: [], warnings: [], findings: [], skipped: 'not a stdio server' };
  const scan = packagesOf(config.command, config.args ?? []);
  if (!scan.packages.length && !scan.notes.length)
    return {
      packages: [],
      warnings: [],
      findings: [],
      skipped: 'the command does not run a package through npx or uvx',
    };
  const report: OsvReport = { packages: scan.packages, warnings: [...scan.notes], findings: [] };

  const answers = await Promise.allSettled(scan.packages.map((p) => queryOsv(p, opts)));
  // The caller's abort is a cancellation, not "OSV unreachable": do not start the server on a warning.
  if (opts.signal?.aborted)
    throw new MooringError('cancelled', `The package check for server "${config.name}" was cancelled.`);
  answers.forEach((answer, i) => {
    const pkg = scan.packages[i] as PackageRef;
    if (answer.status === 'rejected') {
      const why = answer.reason instanceof Error ? answer.reason.message : String(answer.reason);
      report.warnings.push(`Could not check ${label(pkg)} against OSV (${why}); starting anyway.`);
      return;
    }
    if (!answer.value.length) return;
    report.findings.push({ package: pkg, advisories: answer.value });
    const malicious = answer.value.find(isMalicious);
    if (malicious) {
      const id = malicious.id.startsWith('MAL-')
        ? malicious.id
        : (malicious.aliases ?? []).find((a) => a.startsWith('MAL-'));
      throw new MooringError(
        'vulnerable_package',
        `Blocked: ${pkg.name} is flagged as malicious (${id})${malicious.summary ? `: ${malicious.summary}` : ''}. Server "${config.name}" was not started.`,
        `Remove this server and check your machine for the package; details: https://osv.dev/vulnerability/${id}`,
      );
    }
    const ids = answer.value.map((a) => a.id);
    report.warnings.push(
      `${label(pkg)} has ${ids.length} known vulnerabilit${ids.length === 1 ? 'y' : 'ies'}${pkg.version ? '' : ' in some version'} (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})${pkg.version ? '; update to a fixed version' : '; pin a fixed version'}.`,
    );
  });
  return report;
}
