// One tool step of a turn, inline (ARCHITECTURE.md, "A turn in the chat"): the call card walking its
// lifecycle, with Cancel while it runs. Two sources, one after the other: the saved step once the
// conversation has it (durable, and what the model read), else the call's state on the one tool-call
// stream (the calls store), else the call as the model asked for it.
import { useMutation } from '@tanstack/react-query';
import type { ToolCallRequest, ToolChatMessage } from '@shared/chat';
import { callKey, isTerminalPhase } from '@shared/toolCall';
import { parseModelName } from '@shared/toolNames';
import type { WirePart, WireToolCallEvent } from '@shared/wire';
import { useTRPC } from '../../api/trpc';
import { AppViewSlot } from '../../components/apps/AppView';
import { ToolCallCard, viewOfEvent, type CallView } from '../../components/ToolCallCard';
import { useCalls } from '../../stores/callStore';
import { useChat } from './chatStore';

const approxBytes = (b64: string) => Math.floor((b64.length * 3) / 4);

/** Who the call is: the tool the name resolved to (saved, or heard on the stream), else what the name says. */
function identity(call: ToolCallRequest, step: ToolChatMessage | undefined, live?: WireToolCallEvent) {
  if (step?.target) return step.target;
  if (live) return { server: live.server, tool: live.tool, friendlyName: live.friendlyName };
  const parsed = parseModelName(call.name);
  return {
    server: parsed?.serverSegment ?? 'mooring',
    tool: parsed?.toolSegment ?? call.name,
    friendlyName: parsed?.toolSegment ?? call.name,
  };
}

/** A saved step as the card shows it: the result the model read, or why the call did not run. */
export function viewOfStep(call: ToolCallRequest, step: ToolChatMessage, live?: WireToolCallEvent): CallView {
  const parts: WirePart[] = [
    ...(step.text ? [{ kind: 'text' as const, text: step.text }] : []),
    ...(step.images ?? []).map((i) => ({
      kind: 'image' as const,
      mimeType: i.mimeType,
      base64: i.data,
      size: approxBytes(i.data),
    })),
  ];
  return {
    ...identity(call, step, live),
    phase: step.status,
    arguments: step.editedArguments ?? call.arguments,
    ...(step.editedArguments ? { edited: true } : {}),
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

export function ChatToolCard(props: {
  conversationId: string;
  call: ToolCallRequest;
  step: ToolChatMessage | undefined;
}) {
  const { call, step, conversationId } = props;
  const trpc = useTRPC();
  const live = useCalls((s) => s.calls[callKey({ id: call.id, conversationId })]);
  const turnRunning = useChat((s) => s.running[conversationId] === true);
  const cancel = useMutation(trpc.chat.cancel.mutationOptions());
  const view: CallView = step
    ? viewOfStep(call, step, live)
    : live
      ? { ...viewOfEvent(live), arguments: live.editedArguments ?? call.arguments }
      : { ...identity(call, undefined), phase: 'requested', arguments: call.arguments };
  const active = turnRunning && !step && !isTerminalPhase(view.phase);
  return (
    <div className="chat-tool" data-testid="chat-tool" data-state={view.phase} data-tool={view.tool}>
      <ToolCallCard view={view} />
      {step?.status === 'done' && (
        <AppViewSlot
          server={view.server}
          tool={view.tool}
          conversationId={conversationId}
          input={view.arguments ?? {}}
          result={{
            text: step.text,
            ...(step.structured !== undefined ? { structured: step.structured } : {}),
          }}
          callKey={call.id}
        />
      )}
      {active && (
        <button
          type="button"
          className="chat-tool-cancel"
          onClick={() => cancel.mutate({ conversationId })}
          disabled={cancel.isPending}
        >
          Cancel
        </button>
      )}
    </div>
  );
}
