// The chat's banner when the model cannot be reached (docs/chat.md, "A turn in the chat"): it names the
// provider that is down, from the model's `provider:` prefix, and what to do for that provider; Settings >
// Models is one click away. The reason is the provider check's or the turn's own error (untrusted text,
// rendered as text).
import { isProviderId, PROVIDER_KEY_ENV, type ProviderId } from '@shared/providers';

const NAME: Record<ProviderId, string> = {
  ollama: 'Ollama',
  openai: 'The OpenAI-compatible endpoint',
  anthropic: 'Anthropic',
};

const TO_DO: Record<ProviderId, string> = {
  ollama: 'Start Ollama (no key needed), or pick another provider and model in Settings > Models.',
  openai: `Start the server behind it (LM Studio, llama.cpp, vLLM…) or check its address and key (${PROVIDER_KEY_ENV.openai}) in Settings > Models, or pick another provider there.`,
  anthropic: `Check the Anthropic key (${PROVIDER_KEY_ENV.anthropic}) and the network in Settings > Models, or pick another provider there.`,
};

/** Which provider a `provider:model` spec names and what to say about it; null when it names none we know. */
export function providerAdvice(spec: string): { provider: ProviderId; name: string; toDo: string } | null {
  const prefix = spec.slice(0, Math.max(0, spec.indexOf(':')));
  if (!isProviderId(prefix)) return null;
  return { provider: prefix, name: NAME[prefix], toDo: TO_DO[prefix] };
}

export function NoModelBanner(props: {
  model: string;
  reason: string | undefined;
  onOpenModels: () => void;
}) {
  const advice = providerAdvice(props.model);
  return (
    <div className="banner warn" role="alert" data-testid="chat-no-model" data-provider={advice?.provider}>
      <strong>
        {advice ? `${advice.name} is not reachable` : 'No model is reachable'}
        {props.model ? ` (${props.model})` : ''}.
      </strong>{' '}
      {props.reason ? `${props.reason.replace(/\.$/, '')}. ` : ''}
      {advice?.toDo ?? 'Pick a provider and model in Settings > Models.'}{' '}
      <button type="button" onClick={props.onOpenModels}>
        Open Settings &gt; Models
      </button>
    </div>
  );
}
