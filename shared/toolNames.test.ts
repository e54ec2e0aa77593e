import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  friendlyName,
  MAX_MODEL_NAME_LENGTH,
  parseModelName,
  serverSegment,
  shortHash,
  toModelName,
  toolSegment,
  ToolNameRegistry,
} from './toolNames';

const MODEL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
// Server names as shared/config.ts allows them, including the awkward "a__b", "a_", "_".
const serverArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const toolArb = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.-]{1,128}$/),
  fc.string({ minLength: 1, maxLength: 130 }),
);

describe('toModelName', () => {
  it('is the readable mcp__server__tool for ordinary names', () => {
    expect(toModelName('fs', 'read_file')).toBe('mcp__fs__read_file');
    expect(toModelName('my_server', 'get__thing')).toBe('mcp__my_server__get__thing');
  });

  it('hashes server names that would make the delimiter ambiguous', () => {
    expect(serverSegment('a__b')).toMatch(/^a_b-[0-9a-f]{8}$/);
    expect(serverSegment('a_')).toMatch(/^a-[0-9a-f]{8}$/);
    expect(toolSegment('weird tool/name')).toMatch(/^weird-tool-name-[0-9a-f]{8}$/);
  });

  it('always yields a valid, deterministic API name that parses back to its own segments', () => {
    fc.assert(
      fc.property(serverArb, toolArb, (server, tool) => {
        const name = toModelName(server, tool);
        expect(name).toMatch(MODEL_NAME);
        expect(name.length).toBeLessThanOrEqual(MAX_MODEL_NAME_LENGTH);
        expect(toModelName(server, tool)).toBe(name);
        const parsed = parseModelName(name);
        expect(parsed).toBeDefined();
        // The server segment obeys the rule, so the split is exactly where it was joined.
        expect(parsed!.serverSegment).not.toMatch(/__|_$/);
        expect(name).toBe(`mcp__${parsed!.serverSegment}__${parsed!.toolSegment}`);
        if (name.length < MAX_MODEL_NAME_LENGTH && /^[A-Za-z0-9_-]+$/.test(tool))
          expect(parsed!.toolSegment).toBe(tool);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps distinct pairs distinct (parse is unambiguous)', () => {
    fc.assert(
      fc.property(serverArb, toolArb, serverArb, toolArb, (s1, t1, s2, t2) => {
        fc.pre(s1 !== s2 || t1 !== t2);
        // Equal names would need a 32-bit hash collision or a literal name equal to a sanitised
        // one (the registry handles that case, tested below); random pairs must never collide.
        expect(toModelName(s1, t1)).not.toBe(toModelName(s2, t2));
      }),
      { numRuns: 2000 },
    );
  });

  it('shortens 100-character tool names and long server names with a hash', () => {
    const long = 'x'.repeat(100);
    const a = toModelName('srv', long);
    const b = toModelName('srv', `${long}y`);
    expect(a.length).toBeLessThanOrEqual(64);
    expect(a).not.toBe(b);
    const c = toModelName('s'.repeat(64), 'tool');
    expect(c.length).toBeLessThanOrEqual(64);
    expect(parseModelName(c)!.toolSegment).toBe('tool');
  });

  it('never starts built-in names with the prefix', () => {
    expect(parseModelName('tool_search')).toBeUndefined();
    expect(parseModelName('mcp__x')).toBeUndefined();
    expect(parseModelName('mcp____t')).toBeUndefined();
  });
});

describe('ToolNameRegistry', () => {
  it('maps every model name back to (server, tool)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(serverArb, toolArb), { maxLength: 40, selector: (p) => p.join('\u0000') }),
        (pairs) => {
          const r = new ToolNameRegistry();
          const names = pairs.map(([s, t]) => r.add(s, t));
          expect(new Set(names).size).toBe(pairs.length);
          pairs.forEach(([s, t], i) => {
            expect(r.lookup(names[i]!)).toEqual({ server: s, tool: t });
            expect(names[i]).toMatch(MODEL_NAME);
          });
        },
      ),
    );
  });

  it('separates a forced collision', () => {
    const r = new ToolNameRegistry();
    // "a.b" sanitises to "a-b-<hash>"; a literal tool with that very name collides.
    const sanitised = toModelName('s', 'a.b');
    const literal = sanitised.slice('mcp__s__'.length);
    const n1 = r.add('s', 'a.b');
    const n2 = r.add('s', literal);
    expect(n1).not.toBe(n2);
    expect(r.lookup(n2)).toEqual({ server: 's', tool: literal });
  });
});

describe('helpers', () => {
  it('shortHash is 8 hex digits and stable', () => {
    expect(shortHash('abc')).toMatch(/^[0-9a-f]{8}$/);
    expect(shortHash('abc')).toBe(shortHash('abc'));
    expect(shortHash('abc')).not.toBe(shortHash('abd'));
  });
  it('friendlyName prefers the title', () => {
    expect(friendlyName('fs', 'read_file')).toBe('read_file (fs)');
    expect(friendlyName('fs', 'read_file', 'Read File')).toBe('Read File (fs)');
  });
});
