// What Mooring checks of a skill's bytes (ext-skills specification, "Integrity and Verification"), the
// entries it refuses ("Resource Mapping", "Resources", "Limits"), manifests and their diff ("Content-bound
// approval") and labels for shared names ("Names").
import { describe, expect, it } from 'vitest';
import type { SkillEntry, SkillView } from '@shared/skills';
import { entryProblem } from './skillCatalog';
import { disambiguate, enclosingSkill } from './skillViews';
import { diffManifests, listedFile, manifestOf, sha256, verifyBytes, verifyFrontmatter } from './skillVerify';

const md = '---\nname: refunds\ndescription: Refund requests\n---\n\n# Refunds\n';
const bytes = Buffer.from(md);
const entry = (over: Partial<SkillEntry> = {}): SkillEntry => ({
  uri: 'skill://acme/refunds/SKILL.md',
  frontmatter: { name: 'refunds', description: 'Refund requests' },
  resources: [
    { uri: 'skill://acme/refunds/SKILL.md', digest: sha256(bytes), size: bytes.byteLength },
    { uri: 'skill://acme/refunds/examples/email.md', digest: sha256(Buffer.from('hi')), size: 2 },
  ],
  ...over,
});

describe('verification on read', () => {
  const listed = (entry().resources as { uri: string; digest: string; size: number }[])[0]!;

  it('accepts the bytes the entry describes', () => {
    expect(() => verifyBytes('acme', listed, bytes)).not.toThrow();
  });

  it('refuses other bytes of the same size, naming both digests', () => {
    const other = Buffer.from(md.replace('Refunds', 'Refundz'));
    expect(() => verifyBytes('acme', listed, other)).toThrow(
      `digest mismatch (listed ${listed.digest}, read ${sha256(other)})`,
    );
  });

  it('refuses bytes of another size before hashing', () => {
    expect(() => verifyBytes('acme', listed, Buffer.from(`${md}!`))).toThrow(
      `size mismatch (listed ${bytes.byteLength} bytes, read ${bytes.byteLength + 1})`,
    );
  });

  it('refuses a SKILL.md whose frontmatter differs from the entry, naming the fields', () => {
    expect(() => verifyFrontmatter('acme', entry(), md)).not.toThrow();
    const extra = md.replace('description:', 'allowed-tools: rm\ndescription:');
    expect(() => verifyFrontmatter('acme', entry(), extra)).toThrow(
      'frontmatter differs from the listed entry (allowed-tools)',
    );
    expect(() => verifyFrontmatter('acme', entry(), '# no frontmatter')).toThrow(
      'its frontmatter cannot be read',
    );
  });

  it('reads only files in the manifest: relative, absolute, never outside the skill', () => {
    expect(listedFile('acme', entry(), undefined).uri).toBe('skill://acme/refunds/SKILL.md');
    expect(listedFile('acme', entry(), 'examples/email.md').uri).toBe(
      'skill://acme/refunds/examples/email.md',
    );
    expect(listedFile('acme', entry(), './examples/email.md').uri).toBe(
      'skill://acme/refunds/examples/email.md',
    );
    expect(() => listedFile('acme', entry(), 'examples/credit-note.md')).toThrow(
      'not in the skill’s manifest',
    );
    expect(() => listedFile('acme', entry(), '../other/SKILL.md')).toThrow('the path leaves the skill');
    expect(() => listedFile('acme', entry(), 'skill://other/SKILL.md')).toThrow(
      'not in the skill’s manifest',
    );
  });
});

describe('entries Mooring refuses', () => {
  it('names what is wrong', () => {
    expect(entryProblem(entry())).toBeUndefined();
    expect(entryProblem(entry({ frontmatter: { name: 'payouts', description: 'x' } }))).toMatch(
      /name "payouts" is not its path's last segment/,
    );
    expect(entryProblem(entry({ resources: [] }))).toBe('its manifest does not list its SKILL.md');
    const outside = [
      ...(entry().resources as never[]),
      { uri: 'skill://elsewhere/x', digest: sha256(bytes), size: 1 },
    ];
    expect(entryProblem(entry({ resources: outside }))).toBe('its manifest lists a file outside the skill');
    const huge = [{ uri: 'skill://acme/refunds/SKILL.md', digest: sha256(bytes), size: 17 * 1024 * 1024 }];
    expect(entryProblem(entry({ resources: huge }))).toMatch(/exceeds the limits/);
    expect(entryProblem(entry({ resources: 'dynamic' }))).toBeUndefined();
  });
});

describe('manifests', () => {
  it('binds to every (uri, digest) and says what changed, was added or removed', () => {
    const before = manifestOf(entry());
    const after = manifestOf(
      entry({
        resources: [
          { uri: 'skill://acme/refunds/SKILL.md', digest: sha256(bytes), size: bytes.byteLength },
          { uri: 'skill://acme/refunds/examples/email.md', digest: sha256(Buffer.from('bye!')), size: 4 },
          { uri: 'skill://acme/refunds/scripts/run.sh', digest: sha256(Buffer.from('rm')), size: 2 },
        ],
      }),
    );
    expect(diffManifests('skill://acme/refunds/SKILL.md', before, after).map((c) => c.summary)).toEqual([
      'examples/email.md changed (2 → 4 bytes)',
      'scripts/run.sh added (2 bytes)',
    ]);
    expect(diffManifests('skill://acme/refunds/SKILL.md', after, before).map((c) => c.summary)).toContain(
      'scripts/run.sh removed (was 2 bytes)',
    );
    expect(diffManifests('skill://acme/refunds/SKILL.md', before, before)).toEqual([]);
  });
});

describe('names and nesting', () => {
  const view = (server: string, uri: string, name: string) =>
    ({ server, uri, name, label: name }) as SkillView;

  it('labels every skill of a shared name by server and path; a unique name stays', () => {
    const out = disambiguate([
      view('acme', 'skill://refunds/SKILL.md', 'refunds'),
      view('globex', 'skill://refunds/SKILL.md', 'refunds'),
      view('acme', 'skill://support/refunds/SKILL.md', 'refunds'),
      view('acme', 'skill://git/SKILL.md', 'git'),
    ]);
    expect(out.map((v) => v.label)).toEqual([
      'acme: refunds',
      'globex: refunds',
      'acme: support/refunds',
      'git',
    ]);
  });

  it('finds the nearest enclosing skill', () => {
    const all = [
      'skill://a/SKILL.md',
      'skill://a/b/SKILL.md',
      'skill://a/b/c/SKILL.md',
      'skill://ab/SKILL.md',
    ];
    expect(enclosingSkill('skill://a/b/c/SKILL.md', all)).toBe('skill://a/b/SKILL.md');
    expect(enclosingSkill('skill://ab/SKILL.md', all)).toBeUndefined();
  });
});
