// Generated tool definitions for the catalog-scale benchmark (50 fixture servers × 100 tools
// with $refs and nested schemas). Built in-process as ToolHandles instead of spawning 50 processes:
// the catalog only reads handles (src-main/core/mcp/types.ts), so the figures are the same and the
// run stays inside the CI budget. Deterministic (seeded), so every run measures the same catalog.
import type { Tool } from '@modelcontextprotocol/client';
import type { CatalogServerInput } from '../../src-main/core/catalog/catalog';
import type { ToolHandle } from '../../src-main/core/mcp/types';

const VERBS = ['create', 'read', 'update', 'delete', 'list', 'search', 'export', 'import', 'sync', 'archive'];
const NOUNS = [
  'issue',
  'file',
  'invoice',
  'customer',
  'calendar event',
  'pull request',
  'message',
  'ticket',
  'deployment',
  'database row',
  'spreadsheet',
  'image',
  'playlist',
  'repository',
  'webhook',
  'user',
  'order',
  'shipment',
  'contact',
  'note',
];
const DOMAINS = [
  'github',
  'drive',
  'billing',
  'crm',
  'calendar',
  'slack',
  'jira',
  'k8s',
  'postgres',
  'sheets',
];

/** Small linear congruential generator: a stable pseudo-random sequence from a seed. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function toolDefinition(server: number, i: number, rnd: () => number): Tool {
  const verb = VERBS[i % VERBS.length]!;
  const noun = NOUNS[Math.floor(rnd() * NOUNS.length)]!;
  const domain = DOMAINS[server % DOMAINS.length]!;
  return {
    name: `${verb}_${noun.replace(/ /g, '_')}_${i}`,
    description: `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${noun} in ${domain} (workspace ${server}). Returns the ${noun} as JSON; pages through results with a cursor when there are many.`,
    inputSchema: {
      type: 'object',
      $defs: {
        Filter: {
          type: 'object',
          properties: {
            field: { type: 'string', description: 'Field to filter on' },
            op: { type: 'string', enum: ['eq', 'ne', 'lt', 'gt', 'contains'] },
            value: { type: 'string' },
          },
          required: ['field', 'op'],
        },
        Page: {
          type: 'object',
          properties: { cursor: { type: 'string' }, size: { type: 'integer', minimum: 1, maximum: 100 } },
        },
      },
      properties: {
        id: { type: 'string', description: `The ${noun}'s id` },
        filters: { type: 'array', items: { $ref: '#/$defs/Filter' } },
        page: { $ref: '#/$defs/Page' },
        options: {
          type: 'object',
          properties: {
            dryRun: { type: 'boolean' },
            notify: {
              type: 'object',
              properties: { channel: { type: 'string' }, mention: { type: 'boolean' } },
            },
          },
        },
      },
      required: ['id'],
    },
    annotations: { readOnlyHint: verb === 'read' || verb === 'list' || verb === 'search' },
  };
}

class FixedHandle implements ToolHandle {
  readonly removed = false;
  constructor(
    readonly server: string,
    readonly definition: Tool,
  ) {}
  get name(): string {
    return this.definition.name;
  }
  call(): never {
    throw new Error('catalog-scale handles are never called');
  }
}

/** Fresh definition objects each time, so a build cannot reuse processed schemas from the last one. */
export function generatedServers(servers: number, toolsPerServer: number): CatalogServerInput[] {
  const rnd = lcg(9);
  return Array.from({ length: servers }, (_, s) => {
    const server = `fixture_${s}`;
    return {
      server,
      tools: Array.from(
        { length: toolsPerServer },
        (_, i) => new FixedHandle(server, toolDefinition(s, i, rnd)),
      ),
    };
  });
}

/** Queries a model would send to tool_search over this catalog. */
export function searchQueries(): string[] {
  const rnd = lcg(42);
  return Array.from({ length: 64 }, (_, i) => {
    const verb = VERBS[Math.floor(rnd() * VERBS.length)]!;
    const noun = NOUNS[Math.floor(rnd() * NOUNS.length)]!;
    const domain = DOMAINS[Math.floor(rnd() * DOMAINS.length)]!;
    return i % 3 === 0 ? `${verb} ${noun}` : i % 3 === 1 ? `${verb} ${noun} in ${domain}` : `${noun}s`;
  });
}
