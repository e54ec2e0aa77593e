// Helpers of the chat e2e: a home with a folder of two files and its servers, the web child with extra
// environment (a provider key), screenshots, and a long conversation file written the way the store
// writes one (append-only JSONL, meta line first).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Browser, type Frame, type Page } from '@playwright/test';
import { startMooringWeb, type RunningWeb } from './harness';

export const SHOTS = join(import.meta.dirname, '../test-results/screenshots');
/** A screenshot after two frames: a list that mounted just now has painted its items. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
  );
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/**
 * A fresh home and a folder holding alpha.txt and beta.md; `servers` (given both paths) are written to
 * the home's mcp_servers.json, and `settings` to its settings.json.
 */
export function chatHome(
  name: string,
  servers: (dirs: { home: string; root: string }) => object[],
  settings: object = {},
): { home: string; root: string } {
  mkdirSync(SHOTS, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), `mooring-e2e-${name}-home-`));
  const root = mkdtempSync(join(tmpdir(), `mooring-e2e-${name}-files-`));
  writeFileSync(join(root, 'alpha.txt'), 'first file');
  writeFileSync(join(root, 'beta.md'), '# second');
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: servers({ home, root }) }));
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  return { home, root };
}

/** `mooring web` on `home` whose default model is the scripted OpenAI-format server at `modelUrl`. */
export async function startWebWithOpenAI(home: string, modelUrl: string): Promise<RunningWeb> {
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ providers: { default: 'openai', openai: { baseUrl: `${modelUrl}/v1` } } }),
  );
  return startWebWithEnv(home, { OPENAI_API_KEY: 'sk-e2e' });
}

/** `mooring web` with `env` added; the test process's own environment is restored at once. */
export async function startWebWithEnv(home: string, env: Record<string, string>): Promise<RunningWeb> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    // spawn copies the environment synchronously, before the first await inside.
    return await startMooringWeb(home);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Settings that make the scripted OpenAI-format model at `modelUrl` the default, with every tool offered. */
export const scriptedModelSettings = (modelUrl: string) => ({
  deferredToolThreshold: { tools: 500, tokens: 1_000_000 },
  providers: { default: 'openai', openai: { baseUrl: `${modelUrl}/v1` } },
});

/**
 * `mooring web` on `home` with the scripted model's key, and a 1280×800 page on it (its errors collected
 * into `pageErrors`) once every server in `ready` is ready.
 */
/** The end of a spec that opened the app: the page closes, it threw nothing, the model and web child stop cleanly. */
export async function closeChatApp(o: {
  page?: Page;
  model?: { close(): Promise<unknown> };
  web?: RunningWeb;
  pageErrors: string[];
}): Promise<void> {
  await o.page?.close();
  expect(o.pageErrors).toEqual([]);
  await o.model?.close();
  if (o.web) expect(await o.web.stop(), o.web.stderr()).toBe(0);
}

export async function openChatApp(
  browser: Browser,
  opts: { home: string; ready: string[]; pageErrors: string[] },
): Promise<{ web: RunningWeb; page: Page }> {
  const web = await startWebWithEnv(opts.home, { OPENAI_API_KEY: 'sk-e2e' });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => opts.pageErrors.push(e.message));
  await page.goto(web.url);
  for (const name of opts.ready)
    await expect(page.getByTestId(`server-${name}`).getByTestId('server-state')).toHaveText('ready');
  return { web, page };
}

/** The last MCP App view's own frame: the view runs inside a sandbox proxy frame (docs/mcp-apps.md). */
export async function appViewFrame(page: Page): Promise<Frame> {
  const outer = await page.getByTestId('app-view-frame').last().elementHandle();
  const proxy = await outer!.contentFrame();
  await expect.poll(() => proxy!.childFrames().length).toBeGreaterThan(0);
  return proxy!.childFrames()[0]!;
}

export function longConversation(home: string, id: string, pairs: number): void {
  const dir = join(home, 'conversations');
  mkdirSync(dir, { recursive: true });
  const t0 = Date.now() - pairs * 2000;
  const lines = [
    JSON.stringify({ kind: 'meta', id, title: 'A long conversation', createdAt: t0, workspace: null }),
  ];
  for (let i = 0; i < pairs; i++) {
    lines.push(
      JSON.stringify({
        kind: 'message',
        message: {
          id: `u${i}`,
          at: t0 + i * 2000,
          role: 'user',
          content: [{ type: 'text', text: `Question number ${i}` }],
        },
      }),
      JSON.stringify({
        kind: 'message',
        message: {
          id: `a${i}`,
          at: t0 + i * 2000 + 1,
          role: 'assistant',
          text: `Answer number ${i}`,
          toolCalls: [],
        },
      }),
    );
  }
  writeFileSync(join(dir, `${id}.jsonl`), lines.join('\n') + '\n');
}
