// A UI that stops reading its event stream must not cost Mooring memory in proportion to what happens
// meanwhile (ARCHITECTURE.md, "The path of an event"): each subscriber's queue is bounded, and one that fell
// behind is told to resync. Browser mode's real server and SSE stream; a reader that reads the first events
// and then stalls (its socket buffers fill, the server stops writing); a real server that floods its stderr
// with short lines, each one a live `log` event. Measured: the heap this process keeps after the flood
// (after a full collection, so only what is still held counts). When the reader reads again, it is told to
// resync and gets the state as of now.
import { mkdirSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { SUBSCRIBER_QUEUE_LIMIT } from '../../src-main/core/api/eventStream';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { startWebServer, type WebServer } from '../../src-main/core/web/webServer';
import { fixturePath, tempDir } from '../helpers/servers';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** The heap still held after a full collection, in MB. */
const heldMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

let core: MooringCore | undefined;
let web: WebServer | undefined;
afterEach(async () => {
  await web?.close();
  await core?.close();
});

/** GET with the cookie; resolves with the response as soon as its headers arrive. */
const get = (url: string, cookie?: string) =>
  new Promise<IncomingMessage>((resolve, reject) =>
    request(url, { headers: cookie ? { cookie } : {} }, resolve)
      .on('error', reject)
      .end(),
  );

/** The stream's events so far (its complete SSE `data:` lines). */
const eventsOf = (sse: string) =>
  sse
    .split('\n')
    .slice(0, -1)
    .filter((l) => l.startsWith('data: {'))
    .map((l) => JSON.parse(l.slice(6)) as { type: string; status?: { name: string; state: string } });

describe('a UI that stops reading its event stream', () => {
  it(
    'costs no memory in proportion to a stderr flood meanwhile, and resyncs when it reads again',
    { timeout: 240_000 },
    async () => {
      const home = tempDir('mooring-stalled-');
      const staticDir = join(home, 'renderer');
      mkdirSync(staticDir);
      writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Mooring</title>');
      // 40 MB of stderr, half in 100-byte lines: 200,000 log events.
      const flood = {
        name: 'flood',
        command: 'node',
        args: [fixturePath('stderrFlood.mjs')],
        env: { FLOOD_MB: '40', FLOOD_ON_CALL: '1' },
      };
      writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: [flood] }));
      core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
      web = await startWebServer({ core, staticDir });
      const login = await get(web.url);
      login.resume();
      const cookie = String(login.headers['set-cookie']).split(';')[0]!;
      const origin = new URL(web.url).origin;

      // The UI's stream: read until the server is ready, then stop reading.
      const stream = await get(`${origin}/trpc/events`, cookie);
      expect(stream.statusCode).toBe(200);
      let read = '';
      const onData = (d: Buffer) => void (read += d.toString());
      stream.on('data', onData);
      const ready = () =>
        eventsOf(read).some(
          (e) => e.type === 'status' && e.status?.name === 'flood' && e.status.state === 'ready',
        );
      const readyHeard = new Promise<void>((resolve) => {
        const check = () => ready() && (stream.off('data', check), resolve());
        stream.on('data', check);
      });
      void core.start();
      await readyHeard;
      stream.off('data', onData);
      stream.pause();
      const before = heldMb();

      const out = await core.tools.call('mcp__flood__flood', {}, { client: 'test' });
      expect(out.result.isError).toBe(false);
      // Every line was a live event; the stalled reader's queue holds at most SUBSCRIBER_QUEUE_LIMIT of them.
      // Queued without a bound, the 200,000 events held well over 50 MB here.
      expect(heldMb() - before).toBeLessThan(15);

      // Reading again: what the socket held, then `resync` and the state as of now.
      stream.off('data', onData);
      const afterResync: Array<{ type: string; dropped?: number }> = [];
      await new Promise<void>((resolve) => {
        let partial = '';
        stream.on('data', (d: Buffer) => {
          const lines = (partial + d.toString()).split('\n');
          partial = lines.pop()!;
          for (const line of lines) {
            if (!afterResync.length && !line.includes('"type":"resync"')) continue;
            if (!line.startsWith('data: {')) continue;
            afterResync.push(JSON.parse(line.slice(6)) as { type: string });
            if (afterResync.length > 1 && afterResync.at(-1)!.type === 'status') resolve();
          }
        });
        stream.resume();
      });
      const [resync, status] = afterResync;
      expect(resync!.type).toBe('resync');
      expect(resync!.dropped).toBeGreaterThan(SUBSCRIBER_QUEUE_LIMIT);
      expect(status).toMatchObject({ type: 'status', status: { name: 'flood', state: 'ready' } });
      stream.destroy();
    },
  );
});
