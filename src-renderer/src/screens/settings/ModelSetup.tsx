// Settings > Models, "Set up a model": the first start's way to a working model, in three steps on one
// panel — where the model runs (shared/providers.ts, PROVIDER_PRESETS), Check (the provider's own list of
// models, with the URL and key in the form), and the model picked from that list as the default. Typing a
// name stays possible for a model the list does not show. The key goes where Settings > Models keeps
// keys (the keychain unless the person picks otherwise).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { PROVIDER_PRESETS, type ProviderId, type ProviderPreset } from '@shared/providers';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { useUi } from '../../stores/uiStore';

type KeyStorage = 'keychain' | 'file' | 'envRef';

/** How many of a long list (OpenRouter lists hundreds) show before the filter narrows it. */
const SHOWN = 40;

export function ModelSetup(props: {
  defaultModel: string;
  /** Whether the setup starts open: no model was chosen yet. */
  open: boolean;
  keychainOk: boolean;
  keyFile: string | null;
  /** The setup saved a provider's base URL: the form below shows it too. */
  onSaved: (provider: ProviderId, baseUrl: string) => void;
}) {
  const [open, setOpen] = useState(props.open);
  const navigate = useUi((s) => s.navigate);
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [presetId, setPresetId] = useState<ProviderPreset['id']>('ollama');
  const preset = PROVIDER_PRESETS.find((p) => p.id === presetId)!;
  const [url, setUrl] = useState(preset.baseUrl);
  const [key, setKey] = useState('');
  const [storage, setStorage] = useState<KeyStorage>(props.keychainOk ? 'keychain' : 'envRef');
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState('');
  const [typed, setTyped] = useState('');
  const check = useMutation(trpc.models.check.mutationOptions({ onSuccess: () => setPicked('') }));
  const setUp = useMutation(
    trpc.models.setUp.mutationOptions({
      onSuccess: () => {
        props.onSaved(preset.provider, url.trim());
        for (const k of [trpc.models.get, trpc.models.status, trpc.models.list, trpc.chat.defaultModel])
          void qc.invalidateQueries({ queryKey: k.queryKey() });
      },
    }),
  );
  const base = useId();
  const choose = (p: ProviderPreset) => {
    setPresetId(p.id);
    setUrl(p.baseUrl);
    check.reset();
    setUp.reset();
  };
  const listed = check.data?.ok ? check.data.models : [];
  const matching = listed.filter((m) => m.toLowerCase().includes(filter.trim().toLowerCase()));
  const model = typed.trim() || picked;
  const keyField = preset.key !== 'none';

  if (!open)
    return (
      <div className="panel model-setup" data-testid="model-setup">
        <h2 className="model-setup-title">Default model</h2>
        {props.open ? (
          <p>
            No model chosen yet: new conversations try{' '}
            <code data-testid="model-setup-current">{props.defaultModel}</code>.
          </p>
        ) : (
          <p>
            <code data-testid="model-setup-current">{props.defaultModel}</code> starts new conversations; each
            conversation can pick another.
          </p>
        )}
        <button type="button" onClick={() => setOpen(true)}>
          {props.open ? 'Set up a model…' : 'Set up another model…'}
        </button>
      </div>
    );

  return (
    <form
      className="panel model-setup"
      data-testid="model-setup"
      aria-labelledby={`${base}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        if (!model) return;
        setUp.mutate({
          provider: preset.provider,
          baseUrl: url.trim() || null,
          model,
          ...(keyField && key.trim() ? { apiKey: key, storage } : {}),
        });
      }}
    >
      <h2 className="model-setup-title" id={`${base}-title`}>
        Set up a model
      </h2>
      <p className="muted small">
        Chat needs a language model. Choose where it runs, check that Mooring reaches it, and pick one of the
        models it lists.
      </p>
      <fieldset className="setup-step">
        <legend>1. Where does the model run?</legend>
        <div className="preset-grid" role="radiogroup" aria-label="Where the model runs">
          {PROVIDER_PRESETS.map((p) => (
            <label key={p.id} className={p.id === presetId ? 'preset chosen' : 'preset'}>
              <input
                type="radio"
                name={`${base}-preset`}
                checked={p.id === presetId}
                onChange={() => choose(p)}
              />
              <span>
                <strong>{p.label}</strong>
                <span className="muted small">{p.note}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="setup-step">
        <legend>2. Check that Mooring reaches it</legend>
        <label className="stack">
          Base URL
          <input
            aria-label="Setup base URL"
            value={url}
            placeholder="http://127.0.0.1:8080/v1"
            onChange={(e) => {
              setUrl(e.target.value);
              check.reset();
            }}
          />
        </label>
        {keyField && (
          <div className="stack">
            <label className="stack">
              API key{preset.key === 'optional' ? ' (if the server asks for one)' : ''}
              <input
                aria-label="Setup API key"
                type={storage === 'envRef' ? 'text' : 'password'}
                autoComplete="off"
                value={key}
                placeholder={storage === 'envRef' ? '${env:NAME} or a variable name' : 'paste the key'}
                onChange={(e) => {
                  setKey(e.target.value);
                  check.reset();
                }}
              />
            </label>
            {props.keychainOk ? (
              <span className="muted small">Kept in the OS keychain, never shown again.</span>
            ) : (
              <label className="inline key-storage">
                No keychain here; keep it
                <select
                  aria-label="Where to keep the key"
                  value={storage}
                  onChange={(e) => setStorage(e.target.value as KeyStorage)}
                >
                  <option value="envRef">as an environment variable reference</option>
                  {props.keyFile && <option value="file">in a plain-text file readable only by you</option>}
                </select>
              </label>
            )}
          </div>
        )}
        <div className="actions">
          <button
            type="button"
            disabled={check.isPending}
            onClick={() =>
              check.mutate({
                provider: preset.provider,
                baseUrl: url,
                ...(storage !== 'envRef' && key.trim() ? { apiKey: key } : {}),
              })
            }
          >
            {check.isPending ? 'Checking…' : 'Check'}
          </button>
          {check.data?.ok && (
            <span className="ok-text" data-testid="setup-check">
              Reachable: {listed.length} model{listed.length === 1 ? '' : 's'}.
            </span>
          )}
        </div>
        {check.data && !check.data.ok && (
          <div className="error-note" role="alert" data-testid="setup-check">
            <strong>{check.data.error.message}</strong>
            {check.data.error.hint && <p className="hint">{check.data.error.hint}</p>}
          </div>
        )}
        <ErrorNote error={check.error} />
      </fieldset>
      <fieldset className="setup-step" disabled={!check.data?.ok}>
        <legend>3. Pick the model</legend>
        {check.data?.ok && listed.length === 0 && (
          <p className="muted small">The provider listed no models: type the name below.</p>
        )}
        {listed.length > SHOWN && (
          <label className="stack">
            Filter
            <input aria-label="Filter models" value={filter} onChange={(e) => setFilter(e.target.value)} />
          </label>
        )}
        {listed.length > 0 && (
          <div className="model-choices" role="radiogroup" aria-label="Models it lists">
            {matching.slice(0, SHOWN).map((m) => (
              <label key={m} className="inline">
                <input
                  type="radio"
                  name={`${base}-model`}
                  checked={picked === m && !typed.trim()}
                  onChange={() => {
                    setPicked(m);
                    setTyped('');
                  }}
                />{' '}
                <code>{m}</code>
              </label>
            ))}
            {matching.length > SHOWN && (
              <span className="muted small">
                {matching.length - SHOWN} more: type in Filter to narrow the list.
              </span>
            )}
          </div>
        )}
        <details className="setup-other" open={check.data?.ok && listed.length === 0}>
          <summary>Not listed? Type its name</summary>
          <label className="stack">
            Model name
            <input
              aria-label="Model name"
              value={typed}
              placeholder={preset.provider === 'ollama' ? 'llama3.2' : 'model-name'}
              onChange={(e) => setTyped(e.target.value)}
            />
          </label>
        </details>
      </fieldset>
      <div className="actions">
        <button type="submit" className="primary" disabled={!model || !check.data?.ok || setUp.isPending}>
          Use {model ? model : 'this model'}
        </button>
        {!setUp.data && (
          <button type="button" onClick={() => setOpen(false)}>
            Not now
          </button>
        )}
        {setUp.data && (
          <>
            <span className="ok-text" data-testid="setup-done" role="status">
              {setUp.data.defaultModel} is the default model.
            </span>
            <button type="button" onClick={() => navigate('chat')}>
              Start chatting
            </button>
          </>
        )}
      </div>
      <ErrorNote error={setUp.error} testId="setup-error" />
    </form>
  );
}
