// 5. Result transfer: an image result from a fixture server over stdio, through Mooring's full path vs
// the raw SDK client vs the floor (the same bytes over a bare pipe, one JSON line each way), and what of it
// reaches a non-vision model (toModelContent). Two sizes: 10 MiB, and 2.5 MiB, which fits under Mooring's
// default 4 MB stdio line cap. The image server is configured with maxMessageMB 32, as a user would for a
// server that returns big images; both contenders then get the same room. Then the 10 MiB image through
// browser mode to the renderer.
//
// Fairness: the raw SDK's stdio ReadBuffer concatenates every incoming chunk onto what it holds and searches
// the whole buffer again for a newline, which is quadratic in the message's size; Mooring's transport keeps
// the chunks and joins them once. So against the raw SDK the big-message ratios flatter Mooring: the floor
// row is the honest yardstick for transfer.
import type { Client } from '@modelcontextprotocol/client';
import type { MooringCore } from '../../src-main/core/mooringCore';
import { startWebServer } from '../../src-main/core/web/webServer';
import { normalizeResult, toModelContent } from '../../src-main/core/catalog/normalizeResult';
import { benchEcho, FloorClient, openCore, openRawClient } from '../lib/contenders';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { ratio, summarize } from '../lib/stats';

const MiB = 1024 * 1024;
const SIZES = [Math.round(2.5 * MiB), 10 * MiB];
/** The raw SDK's read buffer, raised above its 10 MB default so the 10 MiB image (14 MB as base64) fits. */
const RAW_BUFFER = 64 * MiB;
const BASE64_RUN = /[A-Za-z0-9+/]{256,}/;
const FAIRNESS =
  "the raw SDK's stdio ReadBuffer is quadratic in message size (each chunk is concatenated and the whole buffer searched again), so ratios against it flatter Mooring; compare with the floor";

export async function resultTransferSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const trials = ctx.quick ? 2 : 6;
  const { core, dispose } = await openCore([benchEcho('benchecho', { maxMessageMB: 32 })]);
  let raw: Client | undefined;
  const floor = new FloorClient();
  const rows: Row[] = [];
  const out: Record<string, unknown> = {};
  try {
    await core.start();
    raw = await openRawClient(benchEcho(), { maxBufferSize: RAW_BUFFER });
    for (const bytes of SIZES) {
      const label = `${(bytes / MiB).toFixed(1)} MiB image`;
      const m: number[] = [];
      const r: number[] = [];
      const f: number[] = [];
      let mooringError: string | undefined;
      let modelBytes: number | undefined;
      let base64InPrompt = false;
      for (let i = 0; i < trials; i++) {
        let t = performance.now();
        try {
          const res = await core.tools.call('mcp__benchecho__image', { bytes }, { client: 'bench' });
          m.push(performance.now() - t);
          const img = res.result.parts.find((p) => p.kind === 'image');
          if (!img || img.kind !== 'image' || img.size !== bytes)
            throw new Error(`Mooring returned no ${bytes}-byte image`);
          const content = toModelContent(res.result, { vision: false, maxChars: 100_000 });
          const text = JSON.stringify(content.content);
          modelBytes = Buffer.byteLength(text);
          base64InPrompt ||= BASE64_RUN.test(text);
        } catch (err) {
          mooringError = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
          if (!/over Mooring's \d+ MB limit/.test(mooringError)) throw err; // anything else is a crash
        }
        t = performance.now();
        const rr = await raw.callTool({ name: 'image', arguments: { bytes } });
        r.push(performance.now() - t);
        if ((rr.content as { type: string }[]).length !== 2) throw new Error('raw SDK result lost a block');
        t = performance.now();
        const fr = (await floor.callTool('image', { bytes })) as {
          content: { type: string; data?: string }[];
        };
        f.push(performance.now() - t);
        if (fr.content[1]?.data?.length !== Math.ceil(bytes / 3) * 4)
          throw new Error('the floor lost the image');
        // The same normalisation on the raw SDK's copy: what a non-vision model would get from it.
        if (modelBytes === undefined) {
          const content = toModelContent(normalizeResult(rr as never), { vision: false, maxChars: 100_000 });
          const text = JSON.stringify(content.content);
          modelBytes = Buffer.byteLength(text);
          base64InPrompt ||= BASE64_RUN.test(text);
        }
      }
      const rs = summarize(r);
      const fs = summarize(f);
      const ms = m.length ? summarize(m) : undefined;
      rows.push({
        suite: 'result transfer',
        metric: `${label}, stdio (p50)`,
        value: ms ? Math.round(ms.p50) : Number.NaN,
        unit: 'ms',
        baselineName: 'raw SDK',
        baseline: Math.round(rs.p50),
        ratio: ms ? ratio(ms.p50, rs.p50) : Number.NaN,
        note: mooringError ? `Mooring refused it: ${mooringError}` : FAIRNESS,
      });
      rows.push({
        suite: 'result transfer',
        metric: `${label}, stdio (p50)`,
        value: ms ? Math.round(ms.p50) : Number.NaN,
        unit: 'ms',
        baselineName: 'floor',
        baseline: Math.round(fs.p50 * 10) / 10,
        ratio: ms ? ratio(ms.p50, fs.p50) : Number.NaN,
      });
      rows.push({
        suite: 'result transfer',
        metric: `${label}: bytes to a non-vision model`,
        value: modelBytes ?? Number.NaN,
        unit: 'B',
        baselineName: 'image',
        baseline: bytes,
        ratio: Math.round(((modelBytes ?? Number.NaN) / bytes) * 1e6) / 1e6,
        target: 'no base64',
        met: !base64InPrompt,
      });
      out[label] = {
        bytes,
        base64Bytes: Math.ceil(bytes / 3) * 4,
        mooringMs: ms ?? null,
        mooringError: mooringError ?? null,
        rawSdkMs: rs,
        floorMs: fs,
        modelContentBytes: modelBytes,
        base64InPrompt,
      };
      ctx.log(`${label} done`);
    }
    out.browserMode = await browserModeLeg(core, trials, rows);
  } finally {
    await Promise.all([dispose(), raw?.close(), floor.close()]);
  }
  return {
    rows,
    raw: {
      ...out,
      rawSdkMaxBufferSize: RAW_BUFFER,
      fairness: FAIRNESS,
    },
  };
}

/**
 * The same 10 MiB image through browser mode: the tRPC `tools.run` mutation over HTTP on 127.0.0.1 with
 * the session cookie, as the renderer calls it (the image crosses as base64 JSON). Against the core's
 * direct call in the same round.
 */
async function browserModeLeg(core: MooringCore, trials: number, rows: Row[]) {
  const web = await startWebServer({ core });
  try {
    const first = await fetch(web.url, { redirect: 'manual' });
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
    if (!cookie) throw new Error('browser mode gave no session cookie');
    const bytes = SIZES[SIZES.length - 1]!;
    const viaWeb: number[] = [];
    const direct: number[] = [];
    let wireBytes = 0;
    for (let i = 0; i < trials; i++) {
      let t = performance.now();
      const res = await fetch(`http://127.0.0.1:${web.port}/trpc/tools.run`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'mcp__benchecho__image', arguments: { bytes } }),
      });
      const body = await res.text();
      viaWeb.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`browser mode answered ${res.status}: ${body.slice(0, 200)}`);
      wireBytes = Buffer.byteLength(body);
      t = performance.now();
      await core.tools.call('mcp__benchecho__image', { bytes }, { client: 'bench' });
      direct.push(performance.now() - t);
    }
    const w = summarize(viaWeb);
    const d = summarize(direct);
    rows.push({
      suite: 'result transfer',
      metric: `${(bytes / MiB).toFixed(1)} MiB image to the renderer, browser mode (p50)`,
      value: Math.round(w.p50),
      unit: 'ms',
      baselineName: 'core, in process',
      baseline: Math.round(d.p50),
      ratio: ratio(w.p50, d.p50),
    });
    return { bytes, wireBytes, browserModeMs: w, directMs: d };
  } finally {
    await web.close();
  }
}
