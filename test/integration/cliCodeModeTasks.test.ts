// The three tasks of the code-mode benchmark (test/fixtures/codeModeTasks.ts) end to end at the terminal:
// the real `mooring chat` against real reference servers and the tasks' scripted model, once direct and once
// with `--code-mode`. The model derives its answer from what it read, so both runs must print the answer
// the fixture knows; in code mode the model was offered run_code, took one program step and read only what
// it returned.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeModeTasks,
  serverConfig,
  taskServers,
  taskWorld,
  tasksModel,
  type TaskWorld,
} from '../fixtures/codeModeTasks';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { tempDir } from '../helpers/servers';
import { openaiView } from '../helpers/wireViews';

let world: TaskWorld;
let home: string;
let model: FakeProviderServer;

beforeAll(async () => {
  world = taskWorld({ files: 12, entities: 6 });
  home = tempDir('mooring-cli-code-tasks-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: taskServers(world).map(serverConfig) }),
  );
  model = await startOpenAIServer(tasksModel(codeModeTasks(world)));
});
afterAll(async () => {
  await model.close();
  rmSync(world.dir, { recursive: true, force: true });
});

const chat = async (prompt: string, flags: string[]) => {
  const before = model.requests.length;
  const res = await runMooring(home, ['chat', '--model', 'openai:gpt-4o', ...flags, prompt], {
    env: { MOORING_OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: 'k' },
  });
  return { res, posts: model.requests.slice(before).map((r) => r.body) };
};

describe('the code-mode tasks at the terminal', () => {
  for (const [i, name] of ['files', 'relations', 'resources'].entries())
    it(`${name}: the same answer direct and with --code-mode`, async () => {
      const task = codeModeTasks(world)[i]!;
      const direct = await chat(task.prompt, []);
      expect(direct.res.code, direct.res.stderr).toBe(0);
      expect(direct.res.stdout.trim()).toBe(task.expected);
      expect(openaiView.toolNames(direct.posts[0])).not.toContain('run_code');

      const code = await chat(task.prompt, ['--code-mode']);
      expect(code.res.code, code.res.stderr).toBe(0);
      expect(code.res.stdout.trim()).toBe(task.expected);
      expect(code.posts).toHaveLength(2);
      expect(openaiView.toolNames(code.posts[0])).toContain('run_code');
      expect(code.res.stderr).toContain('done (run_code):');
      // Each call the program made is one nested line; the model read one result, the program's.
      expect(code.res.stderr).toMatch(/↳ (fs|memory|everything)\/\S+ done \(\d+ ms\)/);
      const results = openaiView.toolResults(code.posts[1]);
      expect(results).toHaveLength(1);
      expect(results[0]!.text).toContain(`Returned:\n${task.expected}`);
    });
});
