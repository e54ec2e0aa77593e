// 3. Catalog scale: 50 servers × 100 tools with $refs and nested schemas (generated in-process
// as ToolHandles, see bench/lib/toolDefs.ts). Build time, tool_search latency, and the prompt tokens of
// deferred vs eager loading. The baselines are README.md's targets: the ratio is value / target.
import { buildCatalog } from '../../src-main/core/catalog/catalog';
import { ConversationTools } from '../../src-main/core/catalog/conversationTools';
import { toolTokenCost } from '../../src-main/core/catalog/tokenCost';
import { countTokens } from '../../src-main/core/tokenCount';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { ratio, summarize } from '../lib/stats';
import { generatedServers, searchQueries } from '../lib/toolDefs';

const SERVERS = 50;
const TOOLS = 100;

export async function catalogScaleSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const builds = ctx.quick ? 4 : 15;
  const searches = ctx.quick ? 500 : 5000;

  buildCatalog(generatedServers(SERVERS, TOOLS)); // JIT warm-up on other definition objects
  const buildMs: number[] = [];
  const rebuildMs: number[] = [];
  let catalog = buildCatalog(generatedServers(SERVERS, TOOLS));
  // Every build's definitions are made before the first is timed: generating 5,000 definitions
  // (~10 MB) right before a build left them in V8's young generation, and the scavenge that copied the
  // bench's own fresh input out of it (15–20 ms) landed inside the timed build. A catalog's definitions
  // arrived with tools/list long before it is built; the build is what is measured. (A forced full
  // collection before each build instead made builds slower than either.)
  const allInputs = Array.from({ length: builds }, () => generatedServers(SERVERS, TOOLS));
  const buildCpuMs: number[] = [];
  for (let i = 0; i < builds; i++) {
    const inputs = allInputs[i]!;
    const cpu = process.cpuUsage();
    let t = performance.now();
    // The build includes the model-facing list (active tools: every exclusion decided). Schemas
    // are processed on first read; what that costs is timed below.
    catalog = buildCatalog(inputs);
    catalog.active();
    buildMs.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    buildCpuMs.push((used.user + used.system) / 1000);
    t = performance.now();
    catalog.rebuild();
    rebuildMs.push(performance.now() - t);
  }
  const active = catalog.active().length;
  if (catalog.entries.length !== SERVERS * TOOLS)
    throw new Error(`catalog has ${catalog.entries.length} entries`);
  // What eager loading (or a UI listing every schema) pays on top of the build: processing every
  // schema on first read. Measured on a fresh catalog so none was read yet.
  const fresh = buildCatalog(generatedServers(SERVERS, TOOLS));
  const s0 = performance.now();
  for (const e of fresh.active()) if (e.inputSchema.type !== 'object') throw new Error('bad schema');
  const allSchemasMs = performance.now() - s0;

  let t = performance.now();
  const conversation = new ConversationTools(catalog);
  const conversationMs = performance.now() - t;
  if (conversation.mode !== 'deferred') throw new Error('5,000 tools did not defer');
  const queries = searchQueries();
  t = performance.now();
  conversation.runToolSearch({ query: queries[0] }); // the first query builds the MiniSearch index
  const indexMs = performance.now() - t;
  const searchMs: number[] = [];
  // The process's CPU time per search beside the wall time: on a shared machine the wall time's tail is
  // mostly the moments this process was not running at all.
  const searchCpuMs: number[] = [];
  let hits = 0;
  for (let i = 0; i < searches; i++) {
    const q = queries[i % queries.length]!;
    const c = process.cpuUsage();
    const s = performance.now();
    const out = conversation.runToolSearch({ query: q });
    searchMs.push(performance.now() - s);
    const used = process.cpuUsage(c);
    searchCpuMs.push((used.user + used.system) / 1000);
    hits += out.activated.length + out.alreadyActive.length;
  }
  if (hits === 0) throw new Error('tool_search found nothing for any query');

  // Prompt tokens: eager sends every active tool's definition; deferred sends tool_search plus the
  // system-prompt paragraph listing the deferred names.
  t = performance.now();
  const eagerTokens = catalog.active().reduce((sum, e) => sum + e.tokenCost, 0);
  const eagerCountMs = performance.now() - t;
  const deferredTokens =
    conversation
      .modelTools()
      .filter((d) => d.name === 'tool_search')
      .reduce((sum, d) => sum + toolTokenCost(d), 0) + countTokens(conversation.deferredListText());
  const namesOnly = countTokens(conversation.deferredListText());

  const b = summarize(buildMs);
  const bCpu = summarize(buildCpuMs);
  const s = summarize(searchMs);
  const sCpu = summarize(searchCpuMs);
  const share = (deferredTokens / eagerTokens) * 100;
  const rows: Row[] = [
    // Judged at p90 of the runs, not only p50: a build that meets 50 ms in one run and misses in the next
    // under load has not met it.
    target('build 5,000 tools (p50)', b.p50, 'ms', 50),
    target('build 5,000 tools (p90)', b.p90, 'ms', 50, '≤ 50 ms', b.p90 <= 50),
    target('build 5,000 tools, CPU time (p90)', bCpu.p90, 'ms', 50),
    target('tool_search (p50)', s.p50, 'ms', 1, '≤ 1 ms', s.p50 <= 1),
    target('tool_search (p99)', s.p99, 'ms', 2, '≤ 2 ms', s.p99 <= 2),
    target('tool_search, CPU time (p99)', sCpu.p99, 'ms', 2),
    {
      suite: 'catalog scale',
      metric: 'deferred prompt tokens',
      value: deferredTokens,
      unit: 'tokens',
      baselineName: 'eager',
      baseline: eagerTokens,
      ratio: ratio(deferredTokens, eagerTokens),
      target: '≤ 0.05×',
      met: share <= 5,
    },
  ];
  return {
    rows,
    raw: {
      servers: SERVERS,
      toolsPerServer: TOOLS,
      tools: catalog.entries.length,
      active,
      handles: 'generated in-process (bench/lib/toolDefs.ts), not 50 spawned servers',
      buildMs: b,
      buildCpuMs: bCpu,
      rebuildMs: summarize(rebuildMs),
      allSchemasOnFirstReadMs: round(allSchemasMs),
      conversationToolsMs: round(conversationMs),
      searchIndexBuildMs: round(indexMs),
      toolSearchMs: s,
      toolSearchCpuMs: sCpu,
      eagerTokens,
      eagerTokenCountMs: round(eagerCountMs),
      deferredTokens,
      deferredNameListTokens: namesOnly,
      deferredSharePercent: round(share),
    },
  };
}

const round = (v: number) => Math.round(v * 100) / 100;

function target(
  metric: string,
  value: number,
  unit: string,
  goal: number,
  text?: string,
  met?: boolean,
): Row {
  return {
    suite: 'catalog scale',
    metric,
    value: round(value),
    unit,
    baselineName: 'target',
    baseline: goal,
    ratio: ratio(value, goal),
    ...(text ? { target: text, met: met! } : {}),
  };
}
