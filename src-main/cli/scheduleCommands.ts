// `mooring schedule …` (docs/schedules.md, "Schedules"): thin commands over `core.schedules`. `add` writes a
// schedule, `list`/`history` show them, `run NAME` runs one now in the foreground — through the same tool
// loop, catalog and safety gate as the chat, under the unattended policy — and prints its conversation.
// Schedules run on their own while the app, `mooring web` or `mooring serve` runs.
import type { Command } from 'commander';
import type { ChatMessage } from '@shared/chat';
import type { ScheduleInput, ScheduleRun, ScheduleWhen } from '@shared/schedules';
import { jsonForTerminal } from '@shared/untrustedText';
import { MooringError } from '../core/errors';
import type { MooringCore } from '../core/mooringCore';
import { describeWhen } from '@shared/scheduleWords';
import { parseDuration } from '../core/schedules/scheduleTiming';
import { warnNotConnected, type CoreRunner } from './coreRunner';
import { collect, EXIT } from './output';
import { multiline, print, printJson, say, tty } from './terminalText';

interface AddOptions {
  cron?: string;
  every?: string;
  at?: string;
  timezone?: string;
  model: string;
  toolSet?: string;
  codeMode?: boolean;
  allow?: string[];
  workspace?: string;
  missed?: string;
  timeLimit?: string;
  notify: boolean;
  paused?: boolean;
  json?: boolean;
}

function whenFrom(o: AddOptions): ScheduleWhen {
  const given = [o.cron, o.every, o.at].filter((v) => v !== undefined);
  if (given.length !== 1)
    throw new MooringError(
      'usage',
      'Say when, once: --cron "EXPR", --every DURATION or --at TIME',
      'e.g. --cron "0 9 * * 1-5", --every 15m, --at 2026-05-01T09:00',
    );
  const tz = o.timezone ? { timezone: o.timezone } : {};
  if (o.cron !== undefined) return { kind: 'cron', expr: o.cron, ...tz };
  if (o.every !== undefined) {
    if (o.timezone) throw new MooringError('usage', '--timezone goes with --cron or --at', 'Leave it out.');
    return { kind: 'every', everyMs: parseDuration(o.every) };
  }
  return { kind: 'at', at: o.at!, ...tz };
}

function missedFrom(text: string | undefined): ScheduleInput['missed'] {
  if (text === undefined || text === 'run-once' || text === 'skip') return text;
  throw new MooringError('usage', `--missed is run-once or skip, not "${text}"`, 'e.g. --missed skip');
}

const when = (t: number) => new Date(t).toLocaleString();

function runLine(r: ScheduleRun): string {
  const refused = r.refusals.length ? `, ${r.refusals.length} refused` : '';
  return tty`${when(r.startedAt)}  ${r.outcome}${refused}  ${r.summary.split('\n')[0] ?? ''}`;
}

/** The conversation as a person reads it; every string from a model or a server escaped. */
function printConversation(messages: ChatMessage[]): void {
  for (const m of messages) {
    switch (m.role) {
      case 'user':
        for (const p of m.content) if (p.type === 'text') print(tty`> ${multiline(p.text)}\n`);
        break;
      case 'assistant':
        if (m.text) print(tty`${multiline(m.text)}\n`);
        for (const c of m.toolCalls) print(tty`→ ${c.name} ${jsonForTerminal(c.arguments)}\n`);
        break;
      case 'tool': {
        const first = m.text.split('\n')[0]!.slice(0, 200);
        print(tty`  ${m.status}: ${first}${m.text.length > first.length ? ' …' : ''}\n`);
        break;
      }
      case 'note':
        print(tty`[${m.level}] ${multiline(m.text)}\n`);
        break;
    }
  }
}

async function runNow(core: MooringCore, name: string, json: boolean): Promise<number> {
  const schedule = await core.schedules.get(name); // not_found before any server starts
  await core.start();
  warnNotConnected(core);
  const onSigint = () => void core.schedules.cancel(schedule.id);
  process.once('SIGINT', onSigint);
  let run: ScheduleRun;
  try {
    run = await core.schedules.runNow(schedule.id, { wait: true });
  } finally {
    process.off('SIGINT', onSigint);
  }
  const messages = run.conversationId ? (await core.conversations.load(run.conversationId)).messages : [];
  if (json) printJson({ run, messages });
  else {
    printConversation(messages);
    print(tty`\n${schedule.name}: ${run.outcome}. ${run.summary.split('\n')[0] ?? ''}\n`);
    for (const r of run.refusals) print(tty`refused: ${r.tool}: ${r.reason}\n`);
    if (run.conversationId) say(tty`conversation: ${run.conversationId}\n`);
  }
  if (run.outcome === 'done') return EXIT.ok;
  return run.outcome === 'cancelled' ? 130 : EXIT.failed;
}

export function registerScheduleCommands(program: Command, withCore: CoreRunner): void {
  const sc = program
    .command('schedule')
    .description(
      'prompts that run on a schedule, unattended (they run while the app, mooring web or mooring serve runs)',
    );

  sc.command('add')
    .description('add a schedule: mooring schedule add NAME --every 1h --model ollama:llama3.2 PROMPT…')
    .argument('<name>')
    .argument('<prompt...>', 'what the model is asked at each run')
    .option('--cron <expr>', 'a cron expression, e.g. "0 9 * * 1-5" (9:00 on weekdays)')
    .option('--every <duration>', 'an interval: 15m, 2h, 1d, 1h30m (at least a minute)')
    .option('--at <time>', 'once, at an ISO time such as 2026-05-01T09:00')
    .option(
      '--timezone <zone>',
      'with --cron or --at: an IANA zone such as Europe/Berlin (default: this machine’s)',
    )
    .requiredOption('--model <provider:model>', 'e.g. ollama:llama3.2, openai:gpt-4o')
    .option('--tool-set <name>', 'offer only this named tool set (default: every enabled tool)')
    .option('--code-mode', 'the model may write one program that calls many tools (each call as policed)')
    .option(
      '--allow <tool>',
      'a tool that may run although not read-only (repeatable; a trailing * matches a prefix)',
      collect,
    )
    .option('--workspace <dir>', 'the project folder (its approved servers, the MCP root)')
    .option('--missed <what>', 'a time missed while no Mooring ran: run-once (default) or skip')
    .option('--time-limit <duration>', 'cancel a run after this long (default 10m)')
    .option('--no-notify', 'no notification for each run')
    .option('--paused', 'add it paused')
    .option('--json', 'print the schedule as JSON')
    .action(async (name: string, words: string[], o: AddOptions) =>
      withCore(
        async (core) => {
          const missed = missedFrom(o.missed);
          const s = await core.schedules.add({
            name,
            prompt: words.join(' '),
            model: o.model,
            when: whenFrom(o),
            ...(o.toolSet ? { toolSet: o.toolSet } : {}),
            ...(o.codeMode ? { codeMode: true } : {}),
            allow: o.allow ?? [],
            workspace: o.workspace ?? null,
            ...(missed ? { missed } : {}),
            ...(o.timeLimit ? { timeLimitS: Math.round(parseDuration(o.timeLimit) / 1000) } : {}),
            notify: o.notify,
            paused: Boolean(o.paused),
          });
          if (o.json) return void printJson(s);
          const row = (await core.schedules.list()).find((r) => r.schedule.id === s.id);
          say(tty`schedule "${s.name}": ${describeWhen(s.when)}\n`);
          if (row?.next[0]) say(tty`next run: ${when(row.next[0])}\n`);
        },
        { json: o.json },
      ),
    );

  sc.command('list')
    .description('the schedules, their next time and last run')
    .option('--json', 'machine-readable output')
    .action(async (o: { json?: boolean }) =>
      withCore(
        async (core) => {
          const [rows, status] = await Promise.all([core.schedules.list(), core.schedules.status()]);
          if (o.json) return void printJson({ schedules: rows, owner: status.owner });
          if (!rows.length)
            print(
              'No schedules yet. Add one: mooring schedule add NAME --every 1h --model PROVIDER:MODEL PROMPT\n',
            );
          for (const r of rows) {
            const s = r.schedule;
            const next = s.paused ? 'paused' : r.next[0] ? `next ${when(r.next[0])}` : 'no more runs';
            print(
              tty`${s.name}: ${describeWhen(s.when)}, ${s.model} (${next})${r.running ? ' running' : ''}\n`,
            );
            if (r.lastRun) print(`  last: ${runLine(r.lastRun)}\n`);
          }
          say(
            status.owner
              ? tty`Schedules run in ${status.owner.kind} (pid ${status.owner.pid}).\n`
              : 'No Mooring process runs schedules now: start the app, mooring web or mooring serve.\n',
          );
        },
        { json: o.json },
      ),
    );

  sc.command('history')
    .description("a schedule's runs, newest first")
    .argument('<name>')
    .option('--json', 'machine-readable output')
    .action(async (name: string, o: { json?: boolean }) =>
      withCore(
        async (core) => {
          const runs = await core.schedules.history(name);
          if (o.json) return void printJson(runs);
          if (!runs.length) print('No runs yet.\n');
          for (const r of runs)
            print(`${runLine(r)}${r.conversationId ? tty`  (conversation ${r.conversationId})` : ''}\n`);
        },
        { json: o.json },
      ),
    );

  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const)
    sc.command(verb)
      .argument('<name>')
      .option('--json', 'print the schedule as JSON')
      .action(async (name: string, o: { json?: boolean }) =>
        withCore(
          async (core) => {
            const s = await core.schedules.setPaused(name, paused);
            if (o.json) printJson(s);
            else say(tty`schedule "${s.name}" ${paused ? 'paused' : 'resumed'}\n`);
          },
          { json: o.json },
        ),
      );

  sc.command('remove')
    .argument('<name>')
    .option('--json', 'print {"removed": NAME}')
    .action(async (name: string, o: { json?: boolean }) =>
      withCore(
        async (core) => {
          const s = await core.schedules.remove(name);
          if (o.json) printJson({ removed: s.name });
          else say(tty`removed schedule "${s.name}" (its conversations stay)\n`);
        },
        { json: o.json },
      ),
    );

  sc.command('run')
    .description('run a schedule now, in the foreground, and print its conversation')
    .argument('<name>')
    .option('--json', 'print {"run", "messages"} as JSON')
    .action(async (name: string, o: { json?: boolean }) =>
      withCore((core) => runNow(core, name, Boolean(o.json)), { json: o.json }),
    );
}
