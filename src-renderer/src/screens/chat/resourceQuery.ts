// The composer's `@` (docs/chat.md, "A turn in the chat"): where an `@word` is being typed, the text
// once a pick replaces it, and which of the servers' resources and templates (MCP 2025-11-25
// "Resources") and skills (docs/skills.md) match it. Plain functions, so the rules are tested without a browser.
import type { ResourceTemplateView, ResourceView } from '@shared/resources';

/** An `@word` in the composer: `@` at `start`, the word typed after it up to the caret at `end`. */
export interface AtQuery {
  start: number;
  end: number;
  /** What follows `@` up to the caret: the filter. */
  query: string;
}

/**
 * The `@word` being typed at the caret, or null: `@` at the start of the text or after whitespace (so an
 * e-mail address is not one), then no whitespace up to the caret. It ends at the caret: a pick takes out
 * what was typed for the picker, never text that was there after it.
 */
export function atQueryAt(text: string, caret: number): AtQuery | null {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!m) return null;
  const query = m[1]!;
  return { start: caret - query.length - 1, end: caret, query };
}

/** The text without the `@word` (and without the double space it would leave), and where the caret goes. */
export function withoutAtQuery(text: string, q: AtQuery): { text: string; caret: number } {
  const before = text.slice(0, q.start);
  let after = text.slice(q.end);
  if ((before === '' || /\s$/.test(before)) && after.startsWith(' ')) after = after.slice(1);
  return { text: before + after, caret: before.length };
}

/** A server's skill as the picker offers it (shared/skills.ts `SkillView`, the fields it shows). */
export interface SkillOffer {
  uri: string;
  name: string;
  /** Disambiguated across servers ("acme: refunds"). */
  label: string;
  description: string;
}

export type PickOption =
  | { kind: 'resource'; server: string; resource: ResourceView }
  | { kind: 'template'; server: string; template: ResourceTemplateView }
  | { kind: 'skill'; server: string; skill: SkillOffer };

/** What one server offers to attach. */
export interface ServerOffer {
  server: string;
  resources: ResourceView[];
  templates: ResourceTemplateView[];
  /** Its skills, when it serves the Skills extension. */
  skills?: SkillOffer[];
}

export interface MatchedGroup {
  server: string;
  options: PickOption[];
  /** How many more match than are shown: typing narrows them. */
  more: number;
}

/** The picker stays small without a virtual list: at most this many per server, and in all. */
export const SHOWN_PER_SERVER = 8;
export const SHOWN_IN_ALL = 40;

export const optionLabel = (o: PickOption): string =>
  o.kind === 'resource'
    ? (o.resource.title ?? o.resource.name)
    : o.kind === 'skill'
      ? o.skill.label
      : (o.template.title ?? o.template.name);
export const optionUri = (o: PickOption): string =>
  o.kind === 'resource' ? o.resource.uri : o.kind === 'skill' ? o.skill.uri : o.template.uriTemplate;
const optionName = (o: PickOption): string =>
  o.kind === 'resource' ? o.resource.name : o.kind === 'skill' ? o.skill.name : o.template.name;

/**
 * The offers that match `query` (case-insensitive, in the name, title or URI), by server in their order;
 * within a server the ones whose name starts with the query first, then resources, templates, skills.
 */
export function matchOffers(
  offers: readonly ServerOffer[],
  query: string,
  limits: { perServer: number; inAll: number } = { perServer: SHOWN_PER_SERVER, inAll: SHOWN_IN_ALL },
): MatchedGroup[] {
  const q = query.toLowerCase();
  let room = limits.inAll;
  const groups: MatchedGroup[] = [];
  for (const offer of offers) {
    const all: PickOption[] = [
      ...offer.resources.map((resource) => ({ kind: 'resource' as const, server: offer.server, resource })),
      ...offer.templates.map((template) => ({ kind: 'template' as const, server: offer.server, template })),
      ...(offer.skills ?? []).map((skill) => ({ kind: 'skill' as const, server: offer.server, skill })),
    ];
    const rank = (o: PickOption) => {
      const names = [optionLabel(o), optionName(o)];
      if (names.some((n) => n.toLowerCase().startsWith(q))) return 0;
      if ([...names, optionUri(o)].some((s) => s.toLowerCase().includes(q))) return 1;
      return -1;
    };
    const matched = all
      .map((o, i) => ({ o, i, r: rank(o) }))
      .filter((m) => m.r >= 0)
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((m) => m.o);
    if (!matched.length) continue;
    const shown = matched.slice(0, Math.min(limits.perServer, room));
    room -= shown.length;
    groups.push({ server: offer.server, options: shown, more: matched.length - shown.length });
  }
  return groups;
}
