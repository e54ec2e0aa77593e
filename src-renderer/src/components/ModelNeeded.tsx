// A fresh home (docs/chat.md): no model was chosen and the suggested one does not answer, so the Chat and
// the first screen say a model is needed and lead to the setup in Settings > Models (ModelSetup.tsx).
import { useQuery } from '@tanstack/react-query';
import { Bot } from 'lucide-react';
import { useTRPC } from '../api/trpc';
import { useUi } from '../stores/uiStore';
import { Callout, EmptyState } from '../ui';

export function ModelNeeded({ onSetUp }: { onSetUp: () => void }) {
  return (
    <EmptyState
      icon={<Bot size={28} />}
      title="Chat needs a model first"
      testId="chat-setup"
      actions={
        <button type="button" className="primary" onClick={onSetUp}>
          Set up a model
        </button>
      }
    >
      <p>
        Mooring talks to a language model you choose: one on this computer (Ollama, LM Studio) or a service
        with a key (OpenAI, Anthropic, OpenRouter). Pick where it runs, check it, and choose one of its
        models; it takes a minute.
      </p>
    </EmptyState>
  );
}

/**
 * The same news on the first screen (Servers): a line above it while no model was chosen and the suggested
 * one does not answer (models.status, `needsSetup`).
 */
export function ModelNeededNote() {
  const trpc = useTRPC();
  const navigate = useUi((s) => s.navigate);
  const status = useQuery(trpc.models.status.queryOptions());
  if (!status.data?.needsSetup) return null;
  return (
    <Callout tone="info" role="note" title="Chat needs a model first" testId="model-needed-note">
      <p>
        Choose where your model runs and pick one of its models; then add servers for it to use.{' '}
        <button type="button" className="primary" onClick={() => navigate('models')}>
          Set up a model
        </button>
      </p>
    </Callout>
  );
}
