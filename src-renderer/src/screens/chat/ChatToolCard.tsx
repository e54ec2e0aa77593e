// One tool step of a turn, inline (docs/chat.md, "A turn in the chat"): the call card walking its
// lifecycle, with Cancel while it runs. Two sources, one after the other: the saved step once the
// conversation has it (durable, and what the model read), else the call's state on the one tool-call
// stream (the calls store), else the call as the model asked for it.
import { useMutation, useQuery } from '@tanstack/react-query';
import { CircleStop } from 'lucide-react';
import { useRef } from 'react';
import type { ToolCallRequest, ToolChatMessage } from '@shared/chat';
import { RUN_CODE_TOOL } from '@shared/codeMode';
import { callKey, isTerminalPhase, type ToolCallPhase } from '@shared/toolCall';
import { parseModelName } from '@shared/toolNames';
import type { WirePart, WireToolCallEvent } from '@shared/wire';
import { useTRPC } from '../../api/trpc';
import { AppViewSlot, type AppViewProps } from '../../components/apps/AppView';
import { ToolCallCard, viewOfEvent, type CallView } from '../../components/ToolCallCard';
import { useCalls } from '../../stores/callStore';
import { Button } from '../../ui';
import { useChat } from './chatStore';
import { ProgramCard } from './ProgramCard';

const approxBytes = (b64: string) => Math.floor((b64.length * 3) / 4);

/** A tool as the catalog lists it, for a call whose step does not say which tool it was. */
export type KnownTool = { server: string; tool: string; friendlyName: string; modelName: string };

/**
 * Who the call is: the tool the name resolved to (saved, or heard on the stream); else the tool of that
 * name in the catalog (a call that failed before it resolved: the tool is off, say), by its title and
 * server; else what the name says.
 */
export function identity(
  call: ToolCallRequest,
  step: ToolChatMessage | undefined,
  live?: WireToolCallEvent,
  known: readonly KnownTool[] = [],
) {
  if (step?.target) return step.target;
  if (live) return { server: live.server, tool: live.tool, friendlyName: live.friendlyName };
  const parsed = parseModelName(call.name);
  const bare = parsed?.toolSegment ?? call.name;
  const byName = known.find((t) => t.modelName === call.name);
  const bySuffix = known.filter((t) => t.tool === bare);
  const found = byName ?? (bySuffix.length === 1 ? bySuffix[0] : undefined);
  if (found) return { server: found.server, tool: found.tool, friendlyName: found.friendlyName };
  return {
    server: parsed?.serverSegment ?? 'mooring',
    tool: bare,
    friendlyName: bare,
  };
}

/**
 * A saved step's text and images in the server's order (`imagesAt`), without the structured content the
 * text restates for the model (`textShown`: the card shows it as JSON).
 */
export function stepParts(step: ToolChatMessage): WirePart[] {
  const text = step.textShown !== undefined ? step.text.slice(0, step.textShown) : step.text;
  const parts: WirePart[] = [];
  let from = 0;
  const pushText = (to: number) => {
    // Blocks are joined by one newline in `text`: the one before a block is not part of it.
    const t = text.slice(from, to).replace(/^\n/, '');
    if (t) parts.push({ kind: 'text', text: t });
    from = Math.max(from, to);
  };
  (step.images ?? []).forEach((i, n) => {
    pushText(Math.min(text.length, step.imagesAt?.[n] ?? text.length));
    parts.push({ kind: 'image', mimeType: i.mimeType, base64: i.data, size: approxBytes(i.data) });
  });
  pushText(text.length);
  return parts;
}

/** A saved step as the card shows it: the result the model read, or why the call did not run. */
export function viewOfStep(
  call: ToolCallRequest,
  step: ToolChatMessage,
  live?: WireToolCallEvent,
  known?: readonly KnownTool[],
): CallView {
  const parts = stepParts(step);
  return {
    ...identity(call, step, live, known),
    phase: step.status,
    arguments: step.editedArguments ?? call.arguments,
    ...(step.editedArguments ? { edited: true } : {}),
    ...(step.grant ? { grant: step.grant } : {}),
    // The loop's own words for a call the person stopped (agent/toolLoop.ts, abortText).
    ...(step.status === 'failed' && /^cancelled(?::|$)/.test(step.text) ? { cancelled: true } : {}),
    ...(step.status === 'done'
      ? {
          result: {
            isError: false,
            parts,
            ...(step.structured !== undefined ? { structured: step.structured } : {}),
            ...(step.structuredInText ? { structuredInText: true } : {}),
          },
        }
      : { error: { message: step.text } }),
  };
}

/**
 * What the call's MCP App view hears (extension io.modelcontextprotocol/ui, "Lifecycle"): the arguments
 * so far while the model writes them, the model's complete arguments once its message is saved, then the
 * result — or why there is none: a refusal (a denial), a call that did not complete (a failure, Stop).
 */
function viewFeedOf(
  call: ToolCallRequest,
  step: ToolChatMessage | undefined,
  opts: {
    partial: boolean;
    stopped?: string;
    turnRunning: boolean;
    /** The call's live phase and why it ended, when it did (the tools service's stream). */
    phase: ToolCallPhase | undefined;
    why?: string | undefined;
  },
): Pick<AppViewProps, 'partialInput' | 'input' | 'result' | 'cancelled'> {
  // Streamed arguments come only for a call that runs without asking (the core's `viewTarget`).
  if (opts.partial)
    return { partialInput: call.arguments, ...(opts.stopped ? { cancelled: opts.stopped } : {}) };
  const input = { input: call.arguments };
  // A view may send what it hears to its declared domains: the arguments go once the call is past its
  // gate (running), never while the person is asked, and never for a call that was denied or refused.
  if (!step) {
    const past = opts.phase === 'running' || opts.phase === 'done';
    if (opts.phase === 'refused') return { cancelled: opts.why ?? 'The call was not run.' };
    if (opts.phase === 'failed') return { cancelled: opts.why ?? 'The call failed.' };
    if (!opts.turnRunning) return { cancelled: 'The turn ended before this call finished.' };
    return past ? input : {};
  }
  if (step.status === 'done' || step.resultIsError)
    return {
      ...input,
      result: {
        text: step.text,
        ...(step.structured !== undefined ? { structured: step.structured } : {}),
        ...(step.resultIsError ? { isError: true } : {}),
      },
    };
  return { cancelled: step.text };
}

export function ChatToolCard(props: {
  conversationId: string;
  call: ToolCallRequest;
  step: ToolChatMessage | undefined;
  /** A call the model is still writing (of a tool with a view), or was writing when the turn ended. */
  partial?: { target: { server: string; tool: string }; stopped?: string };
}) {
  // A code-mode step is one card with the program and its calls (docs/code-mode.md).
  if (props.call.name === RUN_CODE_TOOL)
    return (
      <div className="chat-tool" data-testid="chat-tool" data-tool={RUN_CODE_TOOL}>
        <ProgramCard conversationId={props.conversationId} call={props.call} step={props.step} />
      </div>
    );
  return <ServerToolCard {...props} />;
}

function ServerToolCard(props: {
  conversationId: string;
  call: ToolCallRequest;
  step: ToolChatMessage | undefined;
  /** A call the model is still writing (of a tool with a view), or was writing when the turn ended. */
  partial?: { target: { server: string; tool: string }; stopped?: string };
}) {
  const { call, step, conversationId, partial } = props;
  const trpc = useTRPC();
  const live = useCalls((s) => s.calls[callKey({ id: call.id, conversationId })]);
  const turnRunning = useChat((s) => s.running[conversationId] === true);
  const cancel = useMutation(trpc.chat.cancel.mutationOptions());
  // Read only for a step that does not name its tool (the query is shared with Tools, and cached).
  const needsCatalog = !step?.target && !live;
  const catalog = useQuery({ ...trpc.tools.list.queryOptions({}), enabled: needsCatalog });
  const known = needsCatalog ? catalog.data : undefined;
  const cancelTask = useMutation(trpc.tools.cancelTask.mutationOptions());
  // The tool a streamed call resolved to, kept when the call is saved: its view stays the same view.
  const streamedTarget = useRef(partial?.target);
  streamedTarget.current ??= partial?.target;
  const view: CallView = step
    ? viewOfStep(call, step, live, known)
    : live
      ? { ...viewOfEvent(live), arguments: live.editedArguments ?? call.arguments }
      : partial
        ? {
            ...partial.target,
            friendlyName: partial.target.tool,
            arguments: call.arguments,
            ...(partial.stopped
              ? { phase: 'failed', error: { message: `Not run: ${partial.stopped}` } }
              : { phase: 'requested' }),
          }
        : {
            ...identity(call, undefined, undefined, known),
            ...(streamedTarget.current ?? {}),
            phase: 'requested',
            arguments: call.arguments,
          };
  const active = turnRunning && !step && !partial && !isTerminalPhase(view.phase);
  return (
    <div className="chat-tool" data-testid="chat-tool" data-state={view.phase} data-tool={view.tool}>
      <ToolCallCard view={view} onCancelTask={() => cancelTask.mutate({ id: call.id, conversationId })} />
      <AppViewSlot
        server={view.server}
        tool={view.tool}
        conversationId={conversationId}
        {...viewFeedOf(call, step, {
          partial: partial !== undefined,
          ...(partial?.stopped ? { stopped: partial.stopped } : {}),
          turnRunning,
          phase: live?.phase,
          why: live?.error?.message,
        })}
        callKey={call.id}
      />
      {active && (
        <Button
          size="sm"
          variant="secondary"
          className="chat-tool-cancel"
          icon={<CircleStop size={14} />}
          onClick={() => cancel.mutate({ conversationId })}
          disabled={cancel.isPending}
        >
          Cancel
        </Button>
      )}
    </div>
  );
}
