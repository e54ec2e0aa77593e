// Skills as the person sees them (docs/skills.md): per server, each with its origin, files and sizes,
// `allowed-tools`, the skill it is nested in and the state of its approval. A name is a label, not an
// identifier (ext-skills specification, "Names"): when two skills share one — within a server or across
// servers — each is labelled by its server and path, never one silently preferred.
import type { SkillEntry, SkillView } from '@shared/skills';
import { allowedToolsOf } from './skillApprovals';
import { pathIn, rootOf } from './skillVerify';

/** The skill's path without the scheme (`acme/billing/refunds`). */
const skillPath = (uri: string) => rootOf(uri).replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');

export function skillView(
  server: string,
  entry: SkillEntry,
  approval: SkillView['approval'],
  nestedIn: string | undefined,
): SkillView {
  const files =
    entry.resources === 'dynamic'
      ? undefined
      : entry.resources.map((r) => ({
          uri: r.uri,
          path: pathIn(entry.uri, r.uri),
          size: r.size,
          digest: r.digest,
        }));
  return {
    server,
    uri: entry.uri,
    name: entry.frontmatter.name,
    label: entry.frontmatter.name,
    description: entry.frontmatter.description,
    ...(files ? { files } : {}),
    dynamic: entry.resources === 'dynamic',
    totalBytes: files?.reduce((n, f) => n + f.size, 0) ?? 0,
    allowedTools: allowedToolsOf(entry),
    ...(nestedIn ? { nestedIn } : {}),
    approval,
  };
}

/** The nearest listed skill whose root holds this one's ("Nested Skills": the listing stays flat). */
export function enclosingSkill(uri: string, all: readonly string[]): string | undefined {
  const root = rootOf(uri);
  return all
    .filter((other) => other !== uri && root.startsWith(`${rootOf(other)}/`))
    .sort((a, b) => b.length - a.length)[0];
}

/** Labels every skill whose name another skill shares as `server: path`; unique names stay as they are. */
export function disambiguate(views: SkillView[]): SkillView[] {
  const count = new Map<string, number>();
  for (const v of views) count.set(v.name, (count.get(v.name) ?? 0) + 1);
  return views.map((v) => (count.get(v.name)! > 1 ? { ...v, label: `${v.server}: ${skillPath(v.uri)}` } : v));
}
