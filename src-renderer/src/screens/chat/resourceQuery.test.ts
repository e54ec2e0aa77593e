import { describe, expect, it } from 'vitest';
import type { ResourceView } from '@shared/resources';
import { atQueryAt, matchOffers, optionLabel, withoutAtQuery, type ServerOffer } from './resourceQuery';

/** The query at the caret marked `|` in `marked`. */
const at = (marked: string) => atQueryAt(marked.replace('|', ''), marked.indexOf('|'));

describe("the composer's @", () => {
  it('starts at the start of the text or after whitespace, and runs to the caret without whitespace', () => {
    expect(at('@|')).toEqual({ start: 0, end: 1, query: '' });
    expect(at('@arch|')).toEqual({ start: 0, end: 5, query: 'arch' });
    expect(at('look at @arch|')).toEqual({ start: 8, end: 13, query: 'arch' });
    expect(at('first line\n@doc|')).toEqual({ start: 11, end: 15, query: 'doc' });
    // It ends at the caret: what follows was there before and stays.
    expect(at('see @ar|chitecture now')).toEqual({ start: 4, end: 7, query: 'ar' });
    expect(at('@|Read it')).toEqual({ start: 0, end: 1, query: '' });
  });

  it('is not an e-mail address, a word after a space, or a second @', () => {
    expect(at('mail me@host|')).toBeNull();
    expect(at('@arch itecture|')).toBeNull();
    expect(at('@arch |')).toBeNull();
    expect(at('@@|')).toBeNull();
    expect(at('plain text|')).toBeNull();
    expect(at('|@arch')).toBeNull();
  });

  it('a pick removes the @word and the double space it would leave; the caret goes where it was', () => {
    const text = 'look at @arch please';
    expect(withoutAtQuery(text, atQueryAt(text, 13)!)).toEqual({ text: 'look at please', caret: 8 });
    expect(withoutAtQuery('@arch', atQueryAt('@arch', 5)!)).toEqual({ text: '', caret: 0 });
    expect(withoutAtQuery('@arch then', atQueryAt('@arch then', 5)!)).toEqual({ text: 'then', caret: 0 });
    expect(withoutAtQuery('a\n@x\nb', atQueryAt('a\n@x\nb', 4)!)).toEqual({ text: 'a\n\nb', caret: 2 });
    expect(withoutAtQuery('@inRead it', atQueryAt('@inRead it', 3)!)).toEqual({ text: 'Read it', caret: 0 });
  });
});

const res = (name: string, uri: string, title?: string): ResourceView => ({
  name,
  uri,
  ...(title ? { title } : {}),
});
const offers: ServerOffer[] = [
  {
    server: 'everything',
    resources: [
      res('instructions.md', 'demo://resource/static/document/instructions.md'),
      res('architecture.md', 'demo://resource/static/document/architecture.md'),
      res('notes', 'demo://notes/architecture'),
    ],
    templates: [{ uriTemplate: 'demo://text/{id}', name: 'Dynamic Text', variables: ['id'] }],
  },
  {
    server: 'catalog',
    resources: [res('cover', 'catalog://cover.png', 'Catalog cover')],
    templates: [
      { uriTemplate: 'catalog://{shelf}/{item}', name: 'item', title: 'Catalog item', variables: [] },
    ],
  },
];

describe('matching resources and templates', () => {
  it('an empty query lists everything, by server, resources before templates', () => {
    const groups = matchOffers(offers, '');
    expect(groups.map((g) => [g.server, g.options.map(optionLabel)])).toEqual([
      ['everything', ['instructions.md', 'architecture.md', 'notes', 'Dynamic Text']],
      ['catalog', ['Catalog cover', 'Catalog item']],
    ]);
  });

  it('matches name, title or URI without case; names that start with the query come first', () => {
    const groups = matchOffers(offers, 'ARCH');
    expect(groups.map((g) => g.options.map(optionLabel))).toEqual([['architecture.md', 'notes']]);
    expect(matchOffers(offers, 'catalog').map((g) => g.options.map(optionLabel))).toEqual([
      ['Catalog cover', 'Catalog item'],
    ]);
    expect(matchOffers(offers, '{shelf}')[0]!.options.map(optionLabel)).toEqual(['Catalog item']);
    expect(matchOffers(offers, 'nothing like it')).toEqual([]);
  });

  it('shows a bounded number per server and in all, and counts the rest', () => {
    const many: ServerOffer[] = ['a', 'b', 'c'].map((server) => ({
      server,
      resources: Array.from({ length: 30 }, (_, i) => res(`r${i}`, `${server}://r${i}`)),
      templates: [],
    }));
    const groups = matchOffers(many, 'r', { perServer: 8, inAll: 20 });
    expect(groups.map((g) => [g.options.length, g.more])).toEqual([
      [8, 22],
      [8, 22],
      [4, 26],
    ]);
    expect(matchOffers(many, 'r1', { perServer: 8, inAll: 20 })[0]!.options.map(optionLabel)).toEqual([
      'r1',
      'r10',
      'r11',
      'r12',
      'r13',
      'r14',
      'r15',
      'r16',
    ]);
  });

  it('offers a server’s skills after its resources, matched by label, name or URI', () => {
    const withSkills: ServerOffer[] = [
      {
        server: 'acme',
        resources: [res('refund-policy.md', 'acme://policy')],
        templates: [],
        skills: [
          {
            uri: 'skill://refunds/SKILL.md',
            name: 'refunds',
            label: 'acme: refunds',
            description: 'Refunds',
          },
        ],
      },
    ];
    const [group] = matchOffers(withSkills, 'refund');
    expect(group!.options.map((o) => [o.kind, optionLabel(o)])).toEqual([
      ['resource', 'refund-policy.md'],
      ['skill', 'acme: refunds'],
    ]);
    expect(matchOffers(withSkills, 'skill://')[0]!.options.map((o) => o.kind)).toEqual(['skill']);
  });
});
