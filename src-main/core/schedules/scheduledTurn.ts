// A scheduled run is a chat turn nobody watches (docs/schedules.md, "Schedules"): a new conversation named for
// the schedule and the time, under the unattended policy, its model, tool set, allowed tools and project
// folder the schedule's, and its refusals and audit lines saying which schedule ran it. The chat runs it
// (agent/chatService.ts `runUnattended`, handed in by the root); this room only says how a schedule maps.
import type { ChatMessage } from '@shared/chat';
import type { RunPrompt } from './scheduleRuns';
import { UNATTENDED_CLIENT_PREFIX } from './unattendedInteractions';

/** A turn under the unattended policy, as the chat runs it. */
export interface UnattendedTurnInput {
  model: string;
  toolSet?: string;
  codeMode?: boolean;
  allow: string[];
  workspace: string | null;
  prompt: string;
  title: string;
  /** Who runs it, in refusals and the audit log. */
  who: string;
  signal: AbortSignal;
  onConversation?: (conversationId: string) => void;
  onMessage?: (message: ChatMessage) => void;
}

export type UnattendedTurnRunner = (
  turn: UnattendedTurnInput,
) => Promise<{ conversationId: string; message: { text: string } }>;

/** The schedules' `RunPrompt` over the chat's unattended turn. */
export function scheduledTurns(run: UnattendedTurnRunner): RunPrompt {
  return async ({ schedule, signal, onConversation, onMessage }) => {
    const result = await run({
      model: schedule.model,
      ...(schedule.toolSet ? { toolSet: schedule.toolSet } : {}),
      ...(schedule.codeMode ? { codeMode: true } : {}),
      allow: schedule.allow,
      workspace: schedule.workspace,
      prompt: schedule.prompt,
      title: `${schedule.name} · ${new Date().toLocaleString()}`,
      who: `${UNATTENDED_CLIENT_PREFIX}"${schedule.name}"`,
      signal,
      onConversation,
      onMessage,
    });
    return { conversationId: result.conversationId, text: result.message.text };
  };
}
