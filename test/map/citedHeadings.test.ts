// A comment that sends the reader to a section finds it: every `ARCHITECTURE.md, "Heading"` or
// `docs/<file>.md, "Heading"` that a source file or a doc (README.md, ARCHITECTURE.md, docs/**/*.md) cites
// names a heading that exists in that file, and every docs/ file cited exists. A heading renamed or a section
// moved fails here, with each citing file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/servers';

/** Where sources live (product, tests, scripts, benchmarks, and the config files at the root). */
const SOURCE_DIRS = ['src-main', 'src-renderer', 'src-preload', 'shared', 'test', 'e2e', 'bench', 'scripts'];
const SOURCE = /\.(ts|tsx|js|mjs|cjs|sh)$/;
const SKIP = new Set(['node_modules', 'out', 'dist', 'results', 'test-results']);

function sources(dir: string, kind = SOURCE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : sources(path, kind);
    return kind.test(e.name) ? [path] : [];
  });
}

/** The docs that cite each other: the README, the map and every file under docs/. */
function markdownDocs(): string[] {
  return ['README.md', 'ARCHITECTURE.md']
    .map((f) => join(ROOT, f))
    .filter((f) => existsSync(f))
    .concat(existsSync(join(ROOT, 'docs')) ? sources(join(ROOT, 'docs'), /\.md$/) : []);
}

interface Citation {
  doc: string;
  heading?: string;
}

/**
 * The citations in a source's text. A comment broken over lines is read as one line (its `//` or ` * `
 * prefixes dropped), so `(ARCHITECTURE.md,` at a line's end and `"Heading")` on the next is one citation.
 */
function citations(text: string, markdown = false): Citation[] {
  // In Markdown a citation breaks over plain lines; in a source, over comment lines.
  const joined = markdown
    ? text.replace(/\n[ \t]*/g, ' ')
    : text.replace(/\n[ \t]*(\/\/|\*(?!\/)|#)[ \t]?/g, ' ');
  const found: Citation[] = [];
  const re = /\b(ARCHITECTURE\.md|docs\/[\w./-]+\.md)(?:,?[ \t]*(?:"([^"\n]+)"|“([^”\n]+)”))?/g;
  for (const m of joined.matchAll(re)) {
    const heading = m[2] ?? m[3];
    found.push({ doc: m[1]!, ...(heading ? { heading } : {}) });
  }
  return found;
}

/** A Markdown file's headings, as written after the #s (backticks kept). */
function headings(markdown: string): Set<string> {
  const inFence = { on: false };
  const out = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) inFence.on = !inFence.on;
    const m = !inFence.on && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) out.add(m[1]!);
  }
  return out;
}

/** A heading as a citation quotes it: the same words, with or without the backticks of code. */
const plain = (h: string) => h.replaceAll('`', '').trim();

describe('sections that source comments cite', () => {
  const files = SOURCE_DIRS.filter((d) => existsSync(join(ROOT, d)))
    .flatMap((d) => sources(join(ROOT, d)))
    .concat(
      readdirSync(ROOT)
        .filter((f) => SOURCE.test(f))
        .map((f) => join(ROOT, f)),
    );
  // This file quotes the pattern in its examples: it is not a reader's pointer.
  const cited = files
    .filter((file) => file !== import.meta.filename)
    .flatMap((file) =>
      citations(readFileSync(file, 'utf8')).map((c) => ({ ...c, file: relative(ROOT, file) })),
    )
    .concat(
      markdownDocs().flatMap((file) =>
        citations(readFileSync(file, 'utf8'), true).map((c) => ({ ...c, file: relative(ROOT, file) })),
      ),
    );

  it('finds the citations (a pattern that matches nothing would prove nothing)', () => {
    expect(cited.filter((c) => c.doc === 'ARCHITECTURE.md' && c.heading).length).toBeGreaterThan(50);
    expect(cited.filter((c) => c.doc.startsWith('docs/') && c.heading).length).toBeGreaterThan(50);
    expect(cited.filter((c) => c.file.endsWith('.md') && c.heading).length).toBeGreaterThan(5);
  });

  it('every cited docs/ file exists', () => {
    const missing = cited.filter((c) => !existsSync(join(ROOT, c.doc))).map((c) => `${c.file}: ${c.doc}`);
    expect(missing).toEqual([]);
  });

  it('every cited heading exists in the file it names', () => {
    const known = new Map<string, Set<string>>();
    const headingsOf = (doc: string) => {
      if (!known.has(doc)) {
        const path = join(ROOT, doc);
        known.set(doc, new Set([...headings(existsSync(path) ? readFileSync(path, 'utf8') : '')].map(plain)));
      }
      return known.get(doc)!;
    };
    const missing = cited
      .filter((c) => c.heading && !headingsOf(c.doc).has(plain(c.heading)))
      .map((c) => `${c.file}: ${c.doc}, "${c.heading}"`);
    expect([...new Set(missing)]).toEqual([]);
  });
});

describe('the readers', () => {
  it('read a citation broken over comment lines, with and without a comma, in either quotes', () => {
    const text = [
      '// The audit log (ARCHITECTURE.md,',
      '// "Data on disk") and docs/decisions/003-lazy-rooms.md.',
      '/**',
      ' * See ARCHITECTURE.md "Layers" and docs/x.md, “The `serve` room”.',
      ' */',
    ].join('\n');
    expect(citations(text)).toEqual([
      { doc: 'ARCHITECTURE.md', heading: 'Data on disk' },
      { doc: 'docs/decisions/003-lazy-rooms.md' },
      { doc: 'ARCHITECTURE.md', heading: 'Layers' },
      { doc: 'docs/x.md', heading: 'The `serve` room' },
    ]);
  });

  it('read a citation broken over plain lines in Markdown', () => {
    const md =
      'as the store does (docs/data-on-disk.md,\n"Data on disk") and ARCHITECTURE.md, "The path\nof an event".';
    expect(citations(md, true)).toEqual([
      { doc: 'docs/data-on-disk.md', heading: 'Data on disk' },
      { doc: 'ARCHITECTURE.md', heading: 'The path of an event' },
    ]);
  });

  it('read headings of every level, not those inside a code fence', () => {
    const md = '# Title\n## `mooring serve` and the app\n```sh\n# a shell comment\n```\n### Tasks ###\n';
    expect([...headings(md)]).toEqual(['Title', '`mooring serve` and the app', 'Tasks']);
  });
});
