// Shared by the server tests (issue 8): a temp MOORING_HOME with real servers, and how to run `mooring serve`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILESYSTEM, ROOT, TSX_CLI, fixturePath, tempDir } from '../helpers/servers';

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
          args: [TSX_CLI, fixturePath('engineServer.ts')],
          policy: 'trust-all',
        },
      ],
    }),
  );
  // The engine was seen before with fresh_tool among its tools (the user enabled it): when it comes back
  // through list_changed it is not quarantined as new, so the exposed set really changes. A tool never
  // seen before stays quarantined (issue 4) and must not reach external clients either.
  writeFileSync(
    join(home, 'known_tools.json'),
    JSON.stringify({ servers: { engine: { known: [...ENGINE_TOOLS, 'fresh_tool'], quarantined: [] } } }),
  );
  return home;
}
