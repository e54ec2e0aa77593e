// A running browser-mode instance, as `mooring web --link` finds it (docs/data-on-disk.md, run/): each
// `mooring web` writes run/web-<pid>.json (0600, in the 0700 run/ folder) with its port and the key that
// proves a caller can read this home, and removes it when it stops. A file whose process is gone is stale
// and removed by whoever finds it.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { MooringError } from '../errors';
import { LINK_KEY_HEADER, NEW_LINK_PATH } from './webAuth';

const InstanceSchema = z.object({
  pid: z.number().int().positive(),
  port: z.number().int().min(1).max(65535),
  key: z.string().min(16),
  startedAt: z.number(),
});
export type WebInstance = z.infer<typeof InstanceSchema>;

const runDir = (home: string) => join(home, 'run');
const fileOf = (home: string, pid: number) => join(runDir(home), `web-${pid}.json`);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Announces this process's browser mode; `remove` takes the file away again (on stop). */
export async function announceWebInstance(
  home: string,
  at: { port: number; key: string },
): Promise<{ remove: () => Promise<void> }> {
  await mkdir(runDir(home), { recursive: true, mode: 0o700 });
  const file = fileOf(home, process.pid);
  const body: WebInstance = { pid: process.pid, port: at.port, key: at.key, startedAt: Date.now() };
  // A file left by a process that had this pid before is replaced (its process is gone: the pid is ours).
  await writeFile(file, `${JSON.stringify(body)}\n`, { mode: 0o600 });
  return { remove: () => rm(file, { force: true }) };
}

/** The browser-mode instances running on this home, newest first; stale files are removed. */
export async function runningWebInstances(home: string): Promise<WebInstance[]> {
  const names = await readdir(runDir(home)).catch(() => [] as string[]);
  const found: WebInstance[] = [];
  for (const name of names) {
    if (!/^web-\d+\.json$/.test(name)) continue;
    const file = join(runDir(home), name);
    const parsed = InstanceSchema.safeParse(
      await readFile(file, 'utf8')
        .then((t) => JSON.parse(t) as unknown)
        .catch(() => undefined),
    );
    if (!parsed.success) continue;
    if (alive(parsed.data.pid)) found.push(parsed.data);
    else await rm(file, { force: true });
  }
  return found.sort((a, b) => b.startedAt - a.startedAt);
}

/**
 * Asks a running instance for a new one-time link; its servers keep running. The request carries the run/
 * file's key and no Origin (web/webAuth.ts); a dead instance is `connect_failed`.
 */
export async function newLinkFrom(instance: WebInstance): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${instance.port}${NEW_LINK_PATH}`, {
    method: 'POST',
    headers: { [LINK_KEY_HEADER]: instance.key },
    signal: AbortSignal.timeout(10_000),
  }).catch((err: unknown) => {
    throw new MooringError(
      'connect_failed',
      `The browser-mode Mooring on port ${instance.port} (process ${instance.pid}) did not answer: ${(err as Error).message}`,
      'If it hangs, stop it (Ctrl-C in its terminal) and start `mooring web` again.',
    );
  });
  const body: unknown = await res.json().catch(() => undefined);
  const url = (body as { url?: unknown } | undefined)?.url;
  if (!res.ok || typeof url !== 'string' || !url.startsWith(`http://127.0.0.1:${instance.port}/`))
    throw new MooringError(
      'refused',
      `The browser-mode Mooring on port ${instance.port} refused to give a new link (HTTP ${res.status}).`,
      'It may be an older Mooring; stop it and start `mooring web` again.',
    );
  return url;
}
