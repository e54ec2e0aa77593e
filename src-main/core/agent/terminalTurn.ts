// `mooring chat`'s turn (docs/chat.md, "A turn in the chat"): one turn in the foreground, with the
// terminal's answers to approvals and every result whole. The tool set and the model are checked first (a
// typo fails before any server starts), and that model answers sampling from then on.
import type { ChatEvent } from '@shared/chat';
import type { ToolCallEvent } from '@shared/toolCall';
import type { SettingsService } from '../config/settingsService';
import type { ChatModels } from './chatModels';
import { runChatTurn, type ChatTurnResult } from './chatTurn';
import type { ConversationStore } from './conversationStore';
import type { ConversationTitles } from './conversationTitles';
import type { ProviderAccess } from './providerAccess';
import { providerCompletion } from './samplingCompletion';
import type { TurnRuntimes } from './turnRuntimes';

export interface TerminalTurnOptions {
  model: string;
  toolSet?: string;
  /** The CLI's --yes: approve what would be asked. */
  preApproved?: boolean;
  /** False when nobody can answer an approval (a script without --yes). */
  interactive?: boolean;
  /**
   * `--code-mode` / `--no-code-mode`: the model may write programs over the tools (docs/code-mode.md);
   * unsaid, as the model starts (Settings > Models).
   */
  codeMode?: boolean;
}

export interface TerminalTurnRun {
  message: string;
  conversationId?: string;
  /** For a new conversation: its project folder. */
  workspace?: string;
  signal?: AbortSignal;
  onEvent?: (event: ChatEvent) => void;
  /** Each lifecycle event of each tool call of the turn. */
  onPhase?: (e: ToolCallEvent) => void;
}

export interface TerminalTurnDeps {
  store: ConversationStore;
  titles: ConversationTitles;
  models: ChatModels;
  providers: ProviderAccess;
  settings: SettingsService;
  runtimes: TurnRuntimes;
}

export async function prepareTerminalTurn(
  deps: TerminalTurnDeps,
  opts: TerminalTurnOptions,
): Promise<{ run: (r: TerminalTurnRun) => Promise<ChatTurnResult> }> {
  const toolSet = opts.toolSet ? deps.settings.toolSet(opts.toolSet).name : undefined;
  const { provider, model } = await deps.providers.providerFor(opts.model);
  deps.models.answerSamplingWith(providerCompletion(provider, model));
  return {
    run: async (r) => {
      const result = await runChatTurn({
        store: deps.store,
        provider,
        model,
        runtime: deps.runtimes.turnRuntime({
          ...((opts.codeMode ?? deps.models.startsInCodeMode(opts.model)) ? { codeMode: true } : {}),
          provider: provider.id,
          ...(toolSet ? { toolSet } : {}),
          ...(opts.preApproved ? { preApproved: true } : {}),
          ...(opts.interactive === false ? { interactive: false } : {}),
          maxChars: Infinity,
        }),
        limits: deps.runtimes.limitsFor(provider.id, model),
        message: r.message,
        ...(r.conversationId ? { conversationId: r.conversationId } : {}),
        ...(r.workspace && !r.conversationId ? { workspace: r.workspace } : {}),
        maxToolIterations: deps.settings.current().maxToolIterations,
        ...(r.signal ? { signal: r.signal } : {}),
        ...(r.onEvent ? { onEvent: r.onEvent } : {}),
        ...(r.onPhase ? { onPhase: r.onPhase } : {}),
      });
      // In the background: the command waits for it (`titles.settled`) after printing the answer.
      deps.titles.afterTurn({
        conversationId: result.conversationId,
        provider,
        model,
        result,
        ...(r.onEvent ? { onEvent: r.onEvent } : {}),
      });
      return result;
    },
  };
}
