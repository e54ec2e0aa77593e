// The map and the rules name the same rooms (ARCHITECTURE.md, "Rooms and what they may import"): the
// rooms table there and the room rules dependency-cruiser enforces (.dependency-cruiser.cjs) list the same
// rooms, each with the same imports. A room added to one and not the other fails here, with the difference.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/servers';

const HEADING = 'Rooms and what they may import';
const CORE = 'src-main/core/';

type Rooms = Record<string, string[]>;

/** Room → the rooms it may import, from the `room-<name>` rules dependency-cruiser runs. */
function roomsOfRules(config: { forbidden: { name: string; to: { pathNot?: string } }[] }): Rooms {
  const rooms: Rooms = {};
  for (const rule of config.forbidden) {
    const room = /^room-(.+)$/.exec(rule.name)?.[1];
    if (!room) continue;
    // `^src-main/core/(room/|allowed/|…|errors\.ts|…)`: the folders it may import, itself included.
    const allowed = [...(rule.to.pathNot ?? '').matchAll(/(?:\(|\|)([A-Za-z]+)\//g)].map((m) => m[1]!);
    rooms[room] = allowed.filter((r) => r !== room).sort();
  }
  return rooms;
}

/**
 * Room → the rooms it may import, from the first table under the heading. A row names one or more rooms
 * (`name/`); its imports are the names in backticks outside any parenthesis, or none ("no other room").
 * The rows of what sits above the rooms (the composition root, the doors and the hosts) are left out.
 */
function roomsOfTable(markdown: string): Rooms {
  const lines = markdown.split('\n');
  const at = lines.findIndex((l) => /^#+\s/.test(l) && l.replace(/^#+\s*/, '').trim() === HEADING);
  if (at < 0) throw new Error(`ARCHITECTURE.md has no heading "${HEADING}"`);
  const start = lines.findIndex((l, i) => i > at && l.startsWith('|'));
  const rows: string[] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!);
  const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const rooms: Rooms = {};
  for (const row of rows) {
    const [named = '', imports = ''] = row.split('|').slice(1, 3);
    const names = ticked(named);
    if (names.some((n) => !/^[A-Za-z]+\/$/.test(n)) || names.includes('api/')) continue;
    const allowed = ticked(imports.replace(/\([^)]*\)/g, ''))
      .map((n) => n.replace(/\/$/, ''))
      .sort();
    for (const name of names) rooms[name.slice(0, -1)] = allowed;
  }
  return rooms;
}

describe('the rooms table of ARCHITECTURE.md and the room rules of dependency-cruiser', () => {
  const rules = roomsOfRules(createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')));
  const table = roomsOfTable(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));

  it('reads both (a parser that finds nothing would prove nothing)', () => {
    expect(Object.keys(rules).length).toBeGreaterThan(10);
    expect(Object.keys(table).length).toBeGreaterThan(10);
  });

  it('name the same rooms', () => {
    expect(Object.keys(table).sort()).toEqual(Object.keys(rules).sort());
  });

  it('give each room the same imports', () => {
    expect(table).toEqual(rules);
  });
});

describe('the parsers', () => {
  it('read a table row per room, several rooms per row, and skip the rows above the rooms', () => {
    const md = [
      '## Rooms and what they may import',
      '',
      '| room | may import |',
      '|---|---|',
      '| `secrets/`, `mcp/` | no other room |',
      '| `schedules/` | `config` (a run is a chat turn: `RunPrompt`) |',
      '| `calls/` | `catalog`, `mcp` |',
      '| `mooringCore.ts` | every room (not `api/`, `web/`) |',
      '| `api/`, `web/`, the hosts | the root and any room |',
      '',
      '| other | table |',
    ].join('\n');
    expect(roomsOfTable(md)).toEqual({
      secrets: [],
      mcp: [],
      schedules: ['config'],
      calls: ['catalog', 'mcp'],
    });
  });

  it('read a room rule of dependency-cruiser', () => {
    const rule = (room: string, allowed: string[]) => ({
      name: `room-${room}`,
      to: { pathNot: `^${CORE}(${[room, ...allowed].map((r) => `${r}/`).join('|')}|errors\\.ts|home\\.ts)` },
    });
    expect(
      roomsOfRules({
        forbidden: [rule('calls', ['mcp', 'catalog']), rule('mcp', []), { name: 'x', to: {} }],
      }),
    ).toEqual({ calls: ['catalog', 'mcp'], mcp: [] });
  });
});
