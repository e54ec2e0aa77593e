// `npm run bench [-- --quick] [-- --markdown] [-- --only=toolCall,cliStart]` (README, "Performance"):
// Mooring against the raw MCP SDK and the physical floor, side by side in one run, every target met or
// missed with its ratio. Prints the table, writes bench/results/latest.json. Timing never fails the run
// (shared machines are noisy); a contender that crashes does (exit 1).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, SETSID } from './lib/contenders';
import { machineInfo, renderTable, type Row, type SuiteContext, type SuiteResult } from './lib/report';
import { catalogScaleSuite } from './suites/catalogScale';
import { chatTurnSuite } from './suites/chatTurn';
import { cliCallSuite } from './suites/cliCall';
import { cliStartSuite } from './suites/cliStart';
import { codeModeSuite } from './suites/codeMode';
import { confinedSuite } from './suites/confined';
import { injectionSuite } from './suites/injection';
import { memorySuite } from './suites/memory';
import { reconnectSuite } from './suites/reconnect';
import { resultTransferSuite } from './suites/resultTransfer';
import { serveIdleSuite } from './suites/serveIdle';
import { startupSuite } from './suites/startup';
import { toolCallSuite } from './suites/toolCall';
import { toolCallModernSuite } from './suites/toolCallModern';
import { uiConversationSuite } from './suites/uiConversation';
import { uiStartSuite } from './suites/uiStart';
import { uiStreamSuite } from './suites/uiStream';
import { uiToolsSuite } from './suites/uiTools';

const SUITES: Record<string, (ctx: SuiteContext) => Promise<SuiteResult>> = {
  toolCall: toolCallSuite,
  toolCallModern: toolCallModernSuite,
  startup: startupSuite,
  cliStart: cliStartSuite,
  cliCall: cliCallSuite,
  serveIdle: serveIdleSuite,
  catalogScale: catalogScaleSuite,
  reconnect: reconnectSuite,
  resultTransfer: resultTransferSuite,
  chatTurn: chatTurnSuite,
  codeMode: codeModeSuite,
  memory: memorySuite,
  uiStream: uiStreamSuite,
  uiConversation: uiConversationSuite,
  uiTools: uiToolsSuite,
  uiStart: uiStartSuite,
  confined: confinedSuite,
  injection: injectionSuite,
};

function parseArgs(argv: string[]): { quick: boolean; only: string[]; markdown: boolean } {
  const quick = argv.includes('--quick');
  const markdown = argv.includes('--markdown');
  const onlyArg = argv.find((a) => a.startsWith('--only='));
  const only = onlyArg ? onlyArg.slice('--only='.length).split(',').filter(Boolean) : Object.keys(SUITES);
  const unknown = [
    ...only.filter((o) => !(o in SUITES)),
    ...argv.filter((a) => a.startsWith('--') && !/^--(quick|markdown|only=.*)$/.test(a)),
  ];
  if (unknown.length) {
    console.error(
      `Unknown option or suite: ${unknown.join(', ')}.\nUsage: npm run bench -- [--quick] [--markdown] [--only=${Object.keys(SUITES).join(',')}]`,
    );
    process.exit(2);
  }
  return { quick, only, markdown };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  // The child-environment lookup of the login shell's PATH runs once per process and would land in the
  // first start-up Mooring does; switched off so start-up ratios compare like with like.
  process.env.MOORING_NO_SHELL_PATH = '1';
  const before = machineInfo();
  const started = performance.now();
  const log = (text: string) => console.error(`  ${text}`);
  const rows: Row[] = [];
  const raw: Record<string, unknown> = {};
  const crashed: { suite: string; error: string }[] = [];
  for (const name of args.only) {
    console.error(`[bench] ${name}${args.quick ? ' (quick)' : ''}…`);
    const t = performance.now();
    try {
      const result = await SUITES[name]!({ quick: args.quick, log });
      rows.push(...result.rows);
      raw[name] = { ...result.raw, suiteSeconds: Math.round((performance.now() - t) / 100) / 10 };
    } catch (err) {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      crashed.push({ suite: name, error });
      console.error(`[bench] ${name} CRASHED: ${error}`);
    }
  }
  const after = machineInfo();
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const header =
    `Mooring benchmark${args.quick ? ' (quick)' : ''}: ${after.cores} cores (${after.cpuModel}), ` +
    `load average ${before.loadavg.join(' ')} before, ${after.loadavg.join(' ')} after; node ${after.node}; ` +
    `shell PATH lookup off (MOORING_NO_SHELL_PATH=1); the CLI and child scripts compiled (out/main/cli.js, bench/results/compiled/), the in-process core from its sources; raw SDK children ${SETSID ? 'started through setsid, like Mooring’s' : 'not in their own session (no setsid)'}; ${seconds} s`;
  console.log(`\n${header}\n\n${renderTable(rows, args.markdown)}`);
  const missed = rows.filter((r) => r.met === false);
  if (missed.length) console.log(`\n${missed.length} target(s) missed (reported, not failed).`);
  for (const c of crashed) console.log(`CRASHED: ${c.suite}`);

  const dir = join(ROOT, 'bench/results');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'latest.json'),
    `${JSON.stringify({ at: new Date().toISOString(), quick: args.quick, seconds, machine: { before, after }, shellPathLookup: 'off (MOORING_NO_SHELL_PATH=1)', rawChildrenViaSetsid: Boolean(SETSID), rows, raw, crashed }, null, 2)}\n`,
  );
  console.log(`\nRaw percentiles: bench/results/latest.json`);
  return crashed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
