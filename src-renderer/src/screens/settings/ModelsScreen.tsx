// Settings > Models (issue 6, Providers): the default model, each provider's base URL (settings.json),
// its API key (the keychain only; the field never shows a stored key), and Check, which lists the
// provider's models or says what is wrong and what to do.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_MODEL_SPEC, DEFAULT_PROVIDER_URLS } from '@shared/providers';
import type { ProviderView } from '@shared/wire';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { PageHeader } from '../../ui';
import '../chat/chat.css';
import './settings.css';

const LABEL: Record<ProviderView['id'], string> = {
  ollama: 'Ollama',
  openai: 'OpenAI-compatible (OpenAI, LM Studio, llama.cpp, vLLM, OpenRouter)',
  anthropic: 'Anthropic',
};

function useModelsQuery() {
  const trpc = useTRPC();
  return useQuery(trpc.models.get.queryOptions());
}
type ModelsView = NonNullable<ReturnType<typeof useModelsQuery>['data']>;

export function ModelsScreen() {
  const view = useModelsQuery();
  if (!view.data) return <ErrorNote error={view.error} />;
  return <ModelsForm data={view.data} />;
}

function ModelsForm({ data }: { data: ModelsView }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [defaultModel, setDefaultModel] = useState(data.defaultModel);
  const [urls, setUrls] = useState<Record<string, string>>(
    Object.fromEntries(
      data.providers.map((p) => [
        p.id,
        p.id === 'ollama' && p.baseUrl === DEFAULT_PROVIDER_URLS.ollama ? '' : (p.baseUrl ?? ''),
      ]),
    ),
  );
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: trpc.models.get.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.models.status.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.chat.defaultModel.queryKey() });
  };
  const save = useMutation(trpc.models.save.mutationOptions({ onSuccess: refresh }));
  return (
    <section aria-labelledby="models-title" className="settings">
      <PageHeader
        id="models-title"
        title="Models"
        description="The model the chat uses by default, and how Mooring reaches each provider. Keys go to the OS keychain, never to a file."
      />
      {!data.keychain.ok && (
        <div className="banner warn" data-testid="no-keychain">
          The keychain is not available ({data.keychain.reason}), so API keys cannot be stored here. Set{' '}
          <code>OPENAI_API_KEY</code> or <code>ANTHROPIC_API_KEY</code> in the environment before starting
          Mooring instead.
        </div>
      )}
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ defaultModel: defaultModel.trim(), baseUrls: urls });
        }}
      >
        <label className="stack">
          Default model (provider:model)
          <input
            aria-label="Default model"
            value={defaultModel}
            onChange={(e) => setDefaultModel(e.target.value)}
            placeholder={DEFAULT_MODEL_SPEC}
            list="model-suggestions"
          />
          <datalist id="model-suggestions">
            {data.providers.map((p) => (
              <option key={p.id} value={`${p.id}:${p.suggestedModel}`} />
            ))}
          </datalist>
          <span className="muted small">
            New conversations start with it; each conversation can pick another. It also answers servers'
            sampling requests, after you approve each one.
          </span>
        </label>
        {data.providers.map((p) => (
          <ProviderRow
            key={p.id}
            provider={p}
            url={urls[p.id] ?? ''}
            onUrl={(v) => setUrls({ ...urls, [p.id]: v })}
            keychainOk={data.keychain.ok}
            onChanged={refresh}
          />
        ))}
        <ErrorNote error={save.error} testId="models-save-error" />
        <div className="actions">
          {save.isSuccess && (
            <span className="ok-text" data-testid="models-saved">
              Saved.
            </span>
          )}
          <span className="spacer" />
          <button type="submit" className="primary" disabled={save.isPending}>
            Save
          </button>
        </div>
      </form>
    </section>
  );
}

function ProviderRow(props: {
  provider: ProviderView;
  url: string;
  onUrl: (v: string) => void;
  keychainOk: boolean;
  onChanged: () => void;
}) {
  const { provider: p } = props;
  const trpc = useTRPC();
  const [key, setKey] = useState('');
  const check = useMutation(trpc.models.check.mutationOptions());
  const setApiKey = useMutation(
    trpc.models.setApiKey.mutationOptions({
      onSuccess: () => {
        setKey('');
        props.onChanged();
      },
    }),
  );
  const result = check.data;
  return (
    <fieldset className="provider" data-testid={`provider-${p.id}`}>
      <legend>{LABEL[p.id]}</legend>
      <label className="stack">
        Base URL
        <input
          aria-label={`${p.id} base URL`}
          value={props.url}
          onChange={(e) => props.onUrl(e.target.value)}
          placeholder={p.envBaseUrl ? `${p.envBaseUrl} (from the environment)` : DEFAULT_PROVIDER_URLS[p.id]}
        />
      </label>
      {p.needsKey && (
        <div className="stack">
          <span>
            API key{' '}
            <span className="muted small">
              {p.keyStored
                ? '— stored in the keychain'
                : p.keyFromEnv
                  ? `— from ${p.keyFromEnv} in the environment`
                  : '— none yet'}
            </span>
          </span>
          <span className="inline">
            <input
              type="password"
              autoComplete="off"
              aria-label={`${p.id} API key`}
              value={key}
              onChange={(e) => setKey(e.target.value)}
              placeholder={p.keyStored ? '•••••••• (type to replace)' : 'paste the key'}
              disabled={!props.keychainOk}
            />
            <button
              type="button"
              disabled={!props.keychainOk || !key.trim() || setApiKey.isPending}
              onClick={() => setApiKey.mutate({ provider: p.id, apiKey: key })}
            >
              Store in keychain
            </button>
            {p.keyStored && (
              <button
                type="button"
                className="danger"
                onClick={() => setApiKey.mutate({ provider: p.id, apiKey: '' })}
              >
                Remove key
              </button>
            )}
          </span>
          <ErrorNote error={setApiKey.error} />
        </div>
      )}
      <div className="actions">
        <button type="button" onClick={() => check.mutate({ provider: p.id })} disabled={check.isPending}>
          {check.isPending ? 'Checking…' : 'Check'}
        </button>
        <span className="muted small">Uses the saved URL and key: save first.</span>
      </div>
      {result &&
        (result.ok ? (
          <p className="ok-text" data-testid={`check-${p.id}`}>
            Reachable. {result.models.length} model{result.models.length === 1 ? '' : 's'}
            {result.models.length ? `: ${result.models.slice(0, 12).join(', ')}` : ''}
            {result.models.length > 12 ? ', …' : ''}
          </p>
        ) : (
          <div className="error-note" role="alert" data-testid={`check-${p.id}`}>
            <strong>{result.error.message}</strong>
            {result.error.hint && <p className="hint">{result.error.hint}</p>}
          </div>
        ))}
      <ErrorNote error={check.error} />
    </fieldset>
  );
}
