// One tool call of the chat, inline (issue 5 "Chat"): the existing call card walking its lifecycle
// (awaiting approval → running with progress → done | failed | refused), with Cancel while it runs.
// Live calls use the full card from the call stream (results, images); calls read back from disk (or
// that never reached a server: tool_search, an unknown tool) get a card built from the saved step.
import { useMutation } from '@tanstack/react-query';
import type { ToolCallRequest, ToolChatMessage } from '@shared/chat';
import { parseModelName } from '@shared/toolNames';
import type { WirePart, WireToolCallEvent } from '@shared/wire';
import { useTRPC } from '../../api/trpc';
import { ToolCallCard } from '../../components/ToolCallCard';
import { useCalls, type CallCard } from '../../stores/callStore';
import { useChat } from './chatStore';

const approxBytes = (b64: string) => Math.floor((b64.length * 3) / 4);

function savedCard(
  call: ToolCallRequest,
  step: ToolChatMessage | undefined,
  live?: WireToolCallEvent['progress'],
  liveState?: string,
): CallCard {
  const parsed = parseModelName(call.name);
  const phase = (step?.status ?? liveState ?? 'requested') as WireToolCallEvent['phase'];
  const parts: WirePart[] = step
    ? [
        ...(step.text ? [{ kind: 'text' as const, text: step.text }] : []),
        ...(step.images ?? []).map((i) => ({
          kind: 'image' as const,
          mimeType: i.mimeType,
          base64: i.data,
          size: approxBytes(i.data),
        })),
      ]
    : [];
  const event: WireToolCallEvent = {
    id: call.id,
    server: parsed?.serverSegment ?? 'mooring',
    tool: parsed?.toolSegment ?? call.name,
    modelName: call.name,
    friendlyName: parsed?.toolSegment ?? call.name,
    phase,
    at: step?.at ?? 0,
    ...(live ? { progress: live } : {}),
    ...(step
      ? {
          result: {
            isError: step.status !== 'done',
            parts,
            ...(step.structured !== undefined ? { structured: step.structured } : {}),
          },
        }
      : {}),
  };
  return {
    id: call.id,
    server: event.server,
    tool: event.tool,
    friendlyName: event.friendlyName,
    events: [event],
    arguments: call.arguments,
  };
}

export function ChatToolCard(props: {
  conversationId: string;
  call: ToolCallRequest;
  step: ToolChatMessage | undefined;
}) {
  const { call, step, conversationId } = props;
  const trpc = useTRPC();
  const streamed = useCalls((s) => s.cards.find((c) => c.id === call.id));
  const live = useChat((s) => s.calls[call.id]);
  const turnRunning = useChat((s) => s.running[conversationId] === true);
  const cancel = useMutation(trpc.chat.cancel.mutationOptions());
  const card: CallCard = streamed
    ? { ...streamed, arguments: streamed.arguments ?? call.arguments }
    : savedCard(call, step, live?.progress, live?.state);
  const state = step?.status ?? live?.state ?? streamed?.events.at(-1)?.phase ?? 'requested';
  const active =
    turnRunning && !step && (state === 'running' || state === 'awaiting-approval' || state === 'requested');
  return (
    <div className="chat-tool" data-testid="chat-tool" data-state={state}>
      <ToolCallCard card={card} />
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
