// What servers ask the user (ARCHITECTURE.md, `clientFeatures/`), one request at a time in a Radix Dialog:
// sampling (approve, edit or decline the request), elicitation forms, and links to open (URL mode).
// A request is answered, never dismissed by a stray click; Escape answers "cancel" where the spec has it.
import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Interaction } from '@shared/interactions';
import { useTRPC } from '../../api/trpc';
import { ElicitationFormBody } from './ElicitationFormBody';
import { ElicitationUrlBody } from './ElicitationUrlBody';
import { SamplingBody } from './SamplingBody';
import type { Answer } from './answer';
import './dialogs.css';

export function InteractionDialogs() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const pending = useQuery(trpc.interactions.pending.queryOptions());
  const request = pending.data?.[0];
  const answer = useMutation(
    trpc.interactions.answer.mutationOptions({
      onSettled: () => void qc.invalidateQueries({ queryKey: trpc.interactions.pending.queryKey() }),
    }),
  );
  const send: Answer = (a) => request && answer.mutate({ id: request.id, answer: a as never });
  return (
    <Dialog.Root open={!!request}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content
          className="modal wide"
          data-testid={request ? `interaction-${request.kind}` : undefined}
          aria-describedby={undefined}
          onPointerDownOutside={(e) => e.preventDefault()}
          onEscapeKeyDown={(e) => {
            e.preventDefault();
            if (request && request.kind !== 'sampling') send({ kind: request.kind, action: 'cancel' });
          }}
        >
          {request && (
            <Body
              key={request.id}
              request={request}
              send={send}
              busy={answer.isPending}
              error={answer.error}
            />
          )}
          {pending.data && pending.data.length > 1 && (
            <p className="muted small">{pending.data.length - 1} more waiting</p>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Body(props: { request: Interaction; send: Answer; busy: boolean; error: unknown }) {
  const r = props.request;
  switch (r.kind) {
    case 'sampling':
      return <SamplingBody request={r} send={props.send} busy={props.busy} error={props.error} />;
    case 'elicitation-form':
      return <ElicitationFormBody request={r} send={props.send} busy={props.busy} error={props.error} />;
    case 'elicitation-url':
      return <ElicitationUrlBody request={r} send={props.send} busy={props.busy} error={props.error} />;
  }
}
