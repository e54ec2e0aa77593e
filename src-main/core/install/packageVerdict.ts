// The OSV package check's verdict for the install consent (safety/osvCheck.ts asks OSV): what the package
// an install would run is known for, in one line. A malicious package is named here and refused at install;
// an unreachable OSV is "unchecked", never a reason to block.
import type { OsvVerdict } from '@shared/registry';
import { queryOsv, type OsvOptions } from '../safety/osvCheck';
import type { PackageRef } from '../safety/packageSpec';

const label = (p: PackageRef) => `${p.name}${p.version ? `@${p.version}` : ''} (${p.ecosystem})`;

export async function osvVerdict(
  packages: readonly PackageRef[],
  opts: OsvOptions & { notApplicable?: string },
): Promise<OsvVerdict> {
  if (!packages.length)
    return {
      status: 'not-applicable',
      text: opts.notApplicable ?? 'it runs no npm or PyPI package, so OSV has nothing to check',
    };
  const answers = await Promise.allSettled(packages.map((p) => queryOsv(p, opts)));
  const lines: string[] = [];
  let status: OsvVerdict['status'] = 'clean';
  answers.forEach((a, i) => {
    const p = packages[i]!;
    if (a.status === 'rejected') {
      if (status === 'clean') status = 'unchecked';
      lines.push(
        `${label(p)} could not be checked against OSV (${a.reason instanceof Error ? a.reason.message : String(a.reason)})`,
      );
      return;
    }
    const malicious = a.value.find(
      (v) => v.id.startsWith('MAL-') || (v.aliases ?? []).some((x) => x.startsWith('MAL-')),
    );
    if (malicious) {
      status = 'malicious';
      lines.push(`${label(p)} is flagged as malicious (${malicious.id}); Mooring will not install it`);
    } else if (a.value.length) {
      if (status !== 'malicious') status = 'vulnerable';
      const ids = a.value.map((v) => v.id);
      lines.push(
        `${label(p)} has ${ids.length} known vulnerabilit${ids.length === 1 ? 'y' : 'ies'} (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`,
      );
    } else lines.push(`no known vulnerabilities in ${label(p)}`);
  });
  return { status, text: lines.join('; ') };
}
