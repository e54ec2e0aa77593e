// Shared by the server tests (ARCHITECTURE.md, "`mooring serve` and the running app"): a temp MOORING_HOME with real servers, and how to run `mooring serve`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { FILESYSTEM, ROOT, RUN_TS, fixturePath, tempDir } from '../helpers/servers';

/** `node <args>` that runs `mooring serve …` through the real bin. */
export function serveCommandLine(): string[] {
  return [join(ROOT, 'bin/mooring.mjs')];
}

const ENGINE_TOOLS = [
  'echo',
  'hang',
  'slow',
  'big',
  'crash',
  'garbage',
  'count',
  'add_tool',
  'remove_tool',
  'pid',
];

export function writeHome(fsRoot: string): string {
  const home = tempDir('mooring-serve-home-');
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        { name: 'files', transport: 'stdio', command: 'node', args: [FILESYSTEM, fsRoot] },
        // trust-all: add_tool has no annotations, and this test is about list_changed, not approvals.
        {
          name: 'engine',
          transport: 'stdio',
          command: 'node',
          args: [RUN_TS, fixturePath('engineServer.ts')],
          policy: 'trust-all',
        },
      ],
    }),
  );
  // The engine was seen before with fresh_tool among its tools (the user enabled it): when it comes back
  // through list_changed it is not quarantined as new, so the exposed set really changes. A tool never
  // seen before stays quarantined (safety/newToolPolicy.ts) and must not reach external clients either.
  writeFileSync(
    join(home, 'known_tools.json'),
    JSON.stringify({ servers: { engine: { known: [...ENGINE_TOOLS, 'fresh_tool'], quarantined: [] } } }),
  );
  return home;
}

export interface McpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw POST to Mooring's MCP endpoint, as a client's HTTP transport sends it (JSON and SSE accepted). */
export function postMcp(url: string, body: unknown, headers: Record<string, string> = {}): Promise<McpReply> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let data = '';
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** An `initialize` request body with this id. */
export const initializeBody = (id: number, client = 'raw') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: client, version: '1' } },
});

/**
 * A client's view of the tools it is offered, refreshed on every notifications/tools/list_changed (the one
 * handler for it on this client). `until` lists now and after each notification until `want` holds: call
 * it before or after the step that changes the tools, no fixed wait either way.
 */
export function watchToolList(client: Client) {
  let notified = 0;
  const waiters = new Set<() => void>();
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    notified++;
    for (const w of waiters) w();
  });
  return {
    notified: () => notified,
    /** The next notification. */
    next(): Promise<void> {
      return new Promise((resolve) => {
        const once = () => {
          waiters.delete(once);
          resolve();
        };
        waiters.add(once);
      });
    },
    until(want: (names: string[]) => boolean): Promise<string[]> {
      return new Promise((resolve, reject) => {
        const check = () =>
          client.listTools().then(({ tools }) => {
            const names = tools.map((t) => t.name);
            if (!waiters.has(check) || !want(names)) return;
            waiters.delete(check);
            resolve(names);
          }, reject);
        waiters.add(check);
        void check();
      });
    },
  };
}
