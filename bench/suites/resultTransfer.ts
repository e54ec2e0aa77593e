// 5. Result transfer (issue 9): an image result from a fixture server over stdio, through Mooring's
// full path vs the raw SDK client, and what of it reaches a non-vision model (toModelContent). Two
// sizes: the 10 MiB, and 2.5 MiB, which fits under Mooring's default 4 MB stdio line cap.
// The image server is configured with maxMessageMB 32, as a user would for a server that returns big
// images; both contenders then get the same room.
// The browser-mode leg (to the renderer over HTTP) is not measured here yet: see the suite's raw note.
import type { Client } from '@modelcontextprotocol/client';
import { normalizeResult, toModelContent } from '../../src-main/core/catalog/normalizeResult';
import { benchEcho, openCore, openRawClient } from '../lib/contenders';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { ratio, summarize } from '../lib/stats';

const MiB = 1024 * 1024;
const SIZES = [Math.round(2.5 * MiB), 10 * MiB];
/** The raw SDK's read buffer, raised above its 10 MB default so the 10 MiB image (14 MB as base64) fits. */
const RAW_BUFFER = 64 * MiB;
const BASE64_RUN = /[A-Za-z0-9+/]{256,}/;

export async function resultTransferSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const trials = ctx.quick ? 2 : 6;
  const { core, dispose } = await openCore([benchEcho('benchecho', { maxMessageMB: 32 })]);
  let raw: Client | undefined;
  const rows: Row[] = [];
  const out: Record<string, unknown> = {};
  try {
    await core.start();
    raw = await openRawClient(benchEcho(), { maxBufferSize: RAW_BUFFER });
    for (const bytes of SIZES) {
      const label = `${(bytes / MiB).toFixed(1)} MiB image`;
      const m: number[] = [];
      const r: number[] = [];
      let mooringError: string | undefined;
      let modelBytes: number | undefined;
      let base64InPrompt = false;
      for (let i = 0; i < trials; i++) {
        let t = performance.now();
        try {
          const res = await core.callTool('mcp__benchecho__image', { bytes }, { client: 'bench' });
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
        // The same normalisation on the raw SDK's copy: what a non-vision model would get from it.
        if (modelBytes === undefined) {
          const content = toModelContent(normalizeResult(rr as never), { vision: false, maxChars: 100_000 });
          const text = JSON.stringify(content.content);
          modelBytes = Buffer.byteLength(text);
          base64InPrompt ||= BASE64_RUN.test(text);
        }
      }
      const rs = summarize(r);
      const ms = m.length ? summarize(m) : undefined;
      rows.push({
        suite: 'result transfer',
        metric: `${label}, stdio (p50)`,
        value: ms ? Math.round(ms.p50) : Number.NaN,
        unit: 'ms',
        baselineName: 'raw SDK',
        baseline: Math.round(rs.p50),
        ratio: ms ? ratio(ms.p50, rs.p50) : Number.NaN,
        ...(mooringError ? { note: `Mooring refused it: ${mooringError}` } : {}),
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
        modelContentBytes: modelBytes,
        base64InPrompt,
      };
      ctx.log(`${label} done`);
    }
  } finally {
    await Promise.all([dispose(), raw?.close()]);
  }
  return {
    rows,
    raw: {
      ...out,
      rawSdkMaxBufferSize: RAW_BUFFER,
      browserMode: 'not measured: the browser-mode server (src-main/core/web) is still being built',
    },
  };
}
