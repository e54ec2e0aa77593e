// `mooring chat`: one chat turn from a terminal (ARCHITECTURE.md, "Processes and entry points"), with
// the configured servers, streaming the answer and each tool step; --json prints one JSON event per
// line: the chat's events, and each tool call's lifecycle as `{"type":"toolCall","event":…}` (the same
// shape as the UI's stream). Approvals, sampling and forms are asked on this terminal through the one
// queued prompt (docs/cli.md, "The terminal"); with no terminal, sampling and forms are declined at once.
import type { Command } from 'commander';
import type { ChatEvent, ToolChatMessage } from '@shared/chat';
import { describeSigns, instructionSigns } from '@shared/instructionSigns';
import { DEFAULT_MODEL_SPEC } from '@shared/providers';
import type { ToolCallEvent } from '@shared/toolCall';
import { jsonForTerminal } from '@shared/untrustedText';
import { toWireEvent } from '../core/api/wire';
import { MooringError } from '../core/errors';
import { warnNotConnected, type CoreRunner } from './coreRunner';
import { EXIT } from './output';
import { answerInteractionsOnTerminal } from './terminalInteractions';
import { interactive } from './terminalPrompt';
import { answerApprovalsOnTerminal } from './terminalRequests';
import { multiline, print, printJsonLine, safe, say, tty } from './terminalText';

function printEvent(e: ChatEvent): void {
  switch (e.type) {
    case 'text-delta':
      print(safe(multiline(e.text)));
      break;
    case 'message-complete': {
      // Every call shows here, also those that never reached a server (an unknown name, tool_search).
      const m = e.message;
      if (m.role === 'assistant')
        for (const c of m.toolCalls) say(tty`\n→ ${c.name} ${jsonForTerminal(c.arguments)}\n`);
      else if (m.role === 'tool') printToolStep(m);
      break;
    }
    case 'note':
      say(tty`\n[${e.level}] ${multiline(e.text)}\n`);
      break;
    case 'error':
      say(tty`\nerror: ${multiline(e.error.message)}\n` + (e.error.hint ? tty`hint: ${e.error.hint}\n` : ''));
      break;
    case 'title':
      say(tty`title: ${e.title}\n`);
      break;
  }
}

/** Lines of a tool step shown here (the whole step is in the conversation, `--json` and the app). */
const STEP_LINES = 12;
const STEP_CHARS = 2_000;

/** A tool step: its status, its text's first lines, and a flag when it reads like instructions to the model. */
function printToolStep(m: ToolChatMessage): void {
  const text = m.text.length > STEP_CHARS ? m.text.slice(0, STEP_CHARS) : m.text;
  const lines = text.split('\n');
  const shown = lines.slice(0, STEP_LINES);
  const more = m.text.split('\n').length - shown.length;
  const from = m.target ? `${m.target.server}/${m.target.tool}` : m.name;
  say(tty`  ${m.status} (${from}):\n`);
  // A code-mode step: each call the program made, one line each (docs/code-mode.md).
  for (const c of m.program?.calls ?? [])
    say(tty`  ↳ ${c.target ? `${c.target.server}/${c.target.tool}` : c.name} ${c.status} (${c.ms} ms)\n`);
  for (const l of shown) say(tty`  │ ${l}\n`);
  if (more > 0 || text.length < m.text.length)
    say(
      tty`  │ … ${more > 0 ? `${more} more line(s)` : 'more'} (mooring chat --json, or the app, shows all)\n`,
    );
  if (m.status === 'refused') return;
  const signs = instructionSigns(m.text);
  if (signs.length) say(tty`  ⚠ ${from}'s result ${describeSigns(signs)}\n`);
}

function printPhase(e: ToolCallEvent): void {
  if (e.phase === 'running' && e.progress)
    say(tty`  … ${e.progress.progress}${e.progress.total ? `/${e.progress.total}` : ''}\n`);
}

export function registerChatCommand(program: Command, withCore: CoreRunner): void {
  program
    .command('chat')
    .description('run one chat turn with the configured servers')
    .argument('<message...>', 'what to ask')
    .option(
      '--model <provider:model>',
      `e.g. ollama:llama3.2, openai:gpt-4o, anthropic:claude-sonnet-4-5 (default ${DEFAULT_MODEL_SPEC})`,
    )
    .option('--conversation <id>', 'continue a conversation')
    .option('--yes', 'approve every tool call that needs approval (never a server’s sampling request)')
    .option('--json', 'one JSON event per line')
    .option('--tool-set <name>', 'offer the model only this named tool set (mooring toolset list)')
    .option(
      '--code-mode',
      'the model may write one program that calls many tools, run in a sandbox (run_code)',
    )
    .option('--no-code-mode', 'no programs, for a model set to start in code mode (Settings > Models)')
    .option(
      '--workspace <dir>',
      'the project folder: its approved servers, and the MCP root offered to servers',
    )
    .action(async (words: string[], o) =>
      withCore(
        async (core) => {
          // The tool set and the model are checked first: a typo fails before any server starts.
          const turn = await core.chat.prepareTurn({
            model: o.model ?? DEFAULT_MODEL_SPEC,
            ...(o.toolSet ? { toolSet: o.toolSet } : {}),
            preApproved: Boolean(o.yes),
            interactive: interactive(),
            ...(o.codeMode !== undefined ? { codeMode: Boolean(o.codeMode) } : {}),
          });
          // --yes approves tool calls, never sampling: a server spending the user's model is asked each time.
          const stopApprovals = !o.yes && interactive() ? answerApprovalsOnTerminal(core) : () => undefined;
          const stopInteractions = answerInteractionsOnTerminal(core, { interactive: interactive() });
          const ac = new AbortController();
          const onSigint = () => ac.abort();
          process.once('SIGINT', onSigint);
          try {
            await core.start();
            warnNotConnected(core);
            const result = await turn.run({
              message: words.join(' '),
              ...(o.conversation ? { conversationId: o.conversation } : {}),
              ...(o.workspace ? { workspace: o.workspace } : {}),
              signal: ac.signal,
              onEvent: (e) => (o.json ? printJsonLine(e) : printEvent(e)),
              onPhase: (e) =>
                o.json ? printJsonLine({ type: 'toolCall', event: toWireEvent(e) }) : printPhase(e),
            });
            if (!o.json) print('\n');
            say(tty`conversation: ${result.conversationId}\n`);
            // The model names a new conversation in the background (agent/conversationTitles.ts, at most
            // its time limit); the command stays until that is saved, or Ctrl-C.
            await Promise.race([
              core.titles.settled(),
              new Promise((resolve) => ac.signal.addEventListener('abort', resolve, { once: true })),
            ]);
            return EXIT.ok;
          } catch (err) {
            if (err instanceof MooringError && err.code === 'cancelled') return 130;
            throw err;
          } finally {
            process.off('SIGINT', onSigint);
            stopApprovals();
            stopInteractions();
          }
        },
        { json: o.json, workspace: o.workspace },
      ),
    );
}
