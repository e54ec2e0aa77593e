// `mooring chat`: one chat turn from a terminal (ARCHITECTURE.md, "Processes and entry points"), with
// the configured servers, streaming the answer and each tool step; --json prints one JSON event per
// line: the chat's events, and each tool call's lifecycle as `{"type":"toolCall","event":…}` (the same
// shape as the UI's stream).
import type { Command } from 'commander';
import type { ChatEvent } from '@shared/chat';
import type { ApprovalRequest } from '@shared/approval';
import { DEFAULT_MODEL_SPEC } from '@shared/providers';
import type { ToolCallEvent } from '@shared/toolCall';
import { toWireEvent } from '../core/api/wire';
import { MooringError } from '../core/errors';
import type { CoreRunner } from './mcpCommands';
import { EXIT } from './output';
import { confirm, interactive } from './prompt';

function printEvent(e: ChatEvent): void {
  switch (e.type) {
    case 'text-delta':
      process.stdout.write(e.text);
      break;
    case 'message-complete': {
      // Every call shows here, also those that never reached a server (an unknown name, tool_search).
      const m = e.message;
      if (m.role === 'assistant')
        for (const c of m.toolCalls) process.stderr.write(`\n→ ${c.name} ${JSON.stringify(c.arguments)}\n`);
      else if (m.role === 'tool')
        process.stderr.write(`  ${m.status}: ${m.text.split('\n')[0]!.slice(0, 200)}\n`);
      break;
    }
    case 'note':
      process.stderr.write(`\n[${e.level}] ${e.text}\n`);
      break;
    case 'error':
      process.stderr.write(`\nerror: ${e.error.message}\n${e.error.hint ? `hint: ${e.error.hint}\n` : ''}`);
      break;
  }
}

function printPhase(e: ToolCallEvent): void {
  if (e.phase === 'running' && e.progress)
    process.stderr.write(`  … ${e.progress.progress}${e.progress.total ? `/${e.progress.total}` : ''}\n`);
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
    .option('--yes', 'approve every tool call that needs approval')
    .option('--json', 'one JSON event per line')
    .option('--tool-set <name>', 'offer the model only this named tool set (mooring toolset list)')
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
          });
          await core.start();
          for (const s of core.servers.statuses())
            if (s.state === 'failed')
              process.stderr.write(
                `warning: ${s.name} is not connected: ${s.error?.message.split('\n')[0]}\n`,
              );
          const onApproval = async (req: ApprovalRequest) => {
            process.stderr.write(
              `\n${req.friendlyName} (${req.server}/${req.tool}) wants to run: ${req.reason}.\narguments: ${JSON.stringify(req.arguments)}\n`,
            );
            core.approvals.answer(req.id, {
              outcome: (await confirm('Run it?')) ? 'approve' : 'deny',
              decidedBy: 'user:cli',
            });
          };
          if (!o.yes && interactive()) core.approvals.on('requested', onApproval);
          const ac = new AbortController();
          const onSigint = () => ac.abort();
          process.once('SIGINT', onSigint);
          try {
            const result = await turn.run({
              message: words.join(' '),
              ...(o.conversation ? { conversationId: o.conversation } : {}),
              ...(o.workspace ? { workspace: o.workspace } : {}),
              signal: ac.signal,
              onEvent: (e) => (o.json ? process.stdout.write(`${JSON.stringify(e)}\n`) : printEvent(e)),
              onPhase: (e) =>
                o.json
                  ? process.stdout.write(`${JSON.stringify({ type: 'toolCall', event: toWireEvent(e) })}\n`)
                  : printPhase(e),
            });
            if (!o.json) process.stdout.write(`\n`);
            process.stderr.write(`conversation: ${result.conversationId}\n`);
            return EXIT.ok;
          } catch (err) {
            if (err instanceof MooringError && err.code === 'cancelled') return 130;
            throw err;
          } finally {
            process.off('SIGINT', onSigint);
            core.approvals.off('requested', onApproval);
          }
        },
        { json: o.json, workspace: o.workspace },
      ),
    );
}
