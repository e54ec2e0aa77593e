// Settings > Models: the default model (set up from a provider's own list, ModelSetup.tsx), each provider's base URL (settings.json), its API key (the
// keychain; without one, an ${env:NAME} reference or a plain-text file, by choice; never shown back),
// and Check, which lists the provider's models or says what is wrong and what to do.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_PROVIDER_URLS, PROVIDER_KEY_ENV } from '@shared/providers';
import { NO_KEYCHAIN_TITLE, SET_UP_KEYCHAIN, USE_ENV_REFERENCE, keyFileChoice } from '@shared/keychainHelp';
import { escapeUntrusted as shown } from '@shared/untrustedText';
import type { ProviderView } from '@shared/wire';

type KeyStorage = 'keychain' | 'file' | 'envRef';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { Callout, PageHeader } from '../../ui';
import '../chat/chat.css';
import './settings.css';
import { titleOf } from '../../shell/screens';
import { CodeModeModelsField } from './CodeModeModels';
import { ModelCapabilitiesField } from './ModelCapabilities';
import { ModelSetup } from './ModelSetup';

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

/** The base URLs as the form shows them: Ollama's default left empty (its placeholder says it). */
const formUrls = (data: ModelsView): Record<string, string> =>
  Object.fromEntries(data.providers.map((p) => [p.id, formUrl(p.id, p.baseUrl ?? '')]));

/** One URL as the form shows it and as it is saved: trimmed, and Ollama's default left empty. */
export const formUrl = (provider: string, url: string): string =>
  provider === 'ollama' && url.trim() === DEFAULT_PROVIDER_URLS.ollama ? '' : url.trim();

/** Equal as JSON with each object's keys sorted: an edit that puts a key back in another order is no change. */
function sameValue(a: unknown, b: unknown): boolean {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== undefined)
              .sort(([x], [y]) => (x < y ? -1 : 1))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function ModelsForm({ data }: { data: ModelsView }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [titlesFromModel, setTitlesFromModel] = useState(data.titlesFromModel);
  const [modelCapabilities, setModelCapabilities] = useState(data.modelCapabilities);
  const [codeModeModels, setCodeModeModels] = useState(data.codeModeModels);
  const [urls, setUrls] = useState<Record<string, string>>(() => formUrls(data));
  // What Save would change: the footer says whether anything here is not saved yet (the setup above
  // saves on its own, and its URL lands in this form already saved).
  const unsaved = !sameValue(
    { urls: formUrls(data), t: data.titlesFromModel, m: data.modelCapabilities, c: data.codeModeModels },
    {
      urls: Object.fromEntries(Object.entries(urls).map(([p, u]) => [p, formUrl(p, u)])),
      t: titlesFromModel,
      m: modelCapabilities,
      c: codeModeModels,
    },
  );
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: trpc.models.get.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.models.status.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.chat.defaultModel.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.models.list.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.models.codeModeModels.queryKey() });
  };
  const save = useMutation(trpc.models.save.mutationOptions({ onSuccess: refresh }));
  // The models the providers listed: what the lists of models below suggest (ModelSpecAdd.tsx).
  const discovered = useQuery(trpc.models.list.queryOptions());
  return (
    <section aria-labelledby="models-title" className="settings">
      <PageHeader
        id="models-title"
        title={titleOf('models')}
        description="The model the chat uses by default, and how Mooring reaches each provider. Keys go to the OS keychain; without one, where you choose."
      />
      {/* The setup first: a model on this computer needs no key, so the keychain's absence comes after it. */}
      <ModelSetup
        defaultModel={data.defaultModel}
        open={!data.chosen}
        keychainOk={data.keychain.ok}
        keyFile={data.keyFile}
        onSaved={(provider, url) => setUrls((u) => ({ ...u, [provider]: formUrl(provider, url) }))}
      />
      {!data.keychain.ok && <NoKeychainBanner reason={data.keychain.reason} keyFile={data.keyFile} />}
      <datalist id="model-suggestions">
        {(discovered.data ?? []).flatMap((p) => p.models.map((m) => <option key={m.spec} value={m.spec} />))}
        {data.providers.map((p) => (
          <option key={p.id} value={`${p.id}:${p.suggestedModel}`} />
        ))}
      </datalist>
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({
            baseUrls: urls,
            titlesFromModel,
            modelCapabilities,
            codeModeModels,
          });
        }}
      >
        <div className="stack">
          <label className="inline">
            <input
              type="checkbox"
              checked={titlesFromModel}
              onChange={(e) => setTitlesFromModel(e.target.checked)}
              aria-describedby="titles-from-model-note"
            />{' '}
            Name conversations with the model
          </label>
          <span className="muted small" id="titles-from-model-note">
            After a conversation&apos;s first answer, its model is asked for a short title: one small request
            to the same provider. Off, a conversation is named by its first words. A title you set is kept.
          </span>
        </div>
        {data.providers.map((p) => (
          <ProviderRow
            key={p.id}
            provider={p}
            url={urls[p.id] ?? ''}
            onUrl={(v) => setUrls({ ...urls, [p.id]: v })}
            keychainOk={data.keychain.ok}
            keyFile={data.keyFile}
            onChanged={refresh}
          />
        ))}
        <ModelCapabilitiesField value={modelCapabilities} onChange={setModelCapabilities} />
        <CodeModeModelsField value={codeModeModels} onChange={setCodeModeModels} />
        {/* Stays at the bottom of the window while the providers scroll past: Save is always in reach. */}
        <div className="actions models-footer">
          <ErrorNote error={save.error} testId="models-save-error" />
          {unsaved ? (
            <span className="warn-text" role="status" data-testid="models-unsaved">
              Unsaved changes
            </span>
          ) : save.isSuccess ? (
            <span className="ok-text" role="status" data-testid="models-saved">
              Saved.
            </span>
          ) : (
            <span className="muted small" role="status" data-testid="models-clean">
              Nothing to save: what you see here is in use.
            </span>
          )}
          <span className="spacer" />
          <button type="submit" className={unsaved ? 'primary' : undefined} disabled={save.isPending}>
            Save
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * No keychain answered: what to do first (the same sentences as the terminal's, shared/keychainHelp.ts),
 * and the keychain's own words (often a D-Bus message) only behind "Details".
 */
function NoKeychainBanner({ reason, keyFile }: { reason: string; keyFile: string | null }) {
  return (
    <Callout tone="warning" role="note" title={NO_KEYCHAIN_TITLE} testId="no-keychain">
      <p>For each provider below, choose where its key goes instead:</p>
      <ul>
        <li>{USE_ENV_REFERENCE}</li>
        {keyFile && <li>{keyFileChoice(keyFile)}</li>}
        <li>{SET_UP_KEYCHAIN}</li>
      </ul>
      <p>Nothing is written in plain text unless you pick that.</p>
      <details>
        <summary>Details</summary>
        <pre className="error-details" data-testid="no-keychain-details">
          {shown(reason)}
        </pre>
      </details>
    </Callout>
  );
}

function ProviderRow(props: {
  provider: ProviderView;
  url: string;
  onUrl: (v: string) => void;
  keychainOk: boolean;
  keyFile: string | null;
  onChanged: () => void;
}) {
  const { provider: p } = props;
  const trpc = useTRPC();
  const [key, setKey] = useState('');
  const [storage, setStorage] = useState<KeyStorage>(props.keychainOk ? 'keychain' : 'envRef');
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
            <span className="muted small" data-testid={`key-source-${p.id}`}>
              {p.keySource === 'keychain'
                ? '— stored in the keychain'
                : p.keySource === 'file'
                  ? '— in the plain-text key file (readable only by you)'
                  : p.keySource === 'envRef'
                    ? `— from \${env:${p.keyEnvRef}}`
                    : p.keyFromEnv
                      ? `— from ${p.keyFromEnv} in the environment`
                      : '— none yet'}
            </span>
          </span>
          <label className="inline key-storage">
            Keep it
            <select
              aria-label={`Where to keep the ${p.id} key`}
              value={storage}
              onChange={(e) => setStorage(e.target.value as KeyStorage)}
            >
              {props.keychainOk && <option value="keychain">in the OS keychain</option>}
              <option value="envRef">as an environment variable reference</option>
              {props.keyFile && <option value="file">in a plain-text file readable only by you</option>}
            </select>
          </label>
          <span className="inline">
            <input
              type={storage === 'envRef' ? 'text' : 'password'}
              autoComplete="off"
              aria-label={`${p.id} API key`}
              value={key}
              onChange={(e) => setKey(e.target.value)}
              placeholder={
                storage === 'envRef'
                  ? `\${env:${PROVIDER_KEY_ENV[p.id] ?? 'API_KEY'}} or a variable name`
                  : p.keyStored
                    ? '•••••••• (type to replace)'
                    : 'paste the key'
              }
            />
            <button
              type="button"
              disabled={!key.trim() || setApiKey.isPending}
              onClick={() => setApiKey.mutate({ provider: p.id, apiKey: key, storage })}
            >
              {storage === 'keychain'
                ? 'Store in keychain'
                : storage === 'file'
                  ? 'Store in file'
                  : 'Use reference'}
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
          {storage === 'file' && props.keyFile && (
            <p className="muted small">
              The key is written as plain text to <code>{props.keyFile}</code>, which only your user can read.
            </p>
          )}
          <ErrorNote error={setApiKey.error} />
        </div>
      )}
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            // What the form holds, saved or not: the base URL above, and a key typed but not stored yet
            // (a reference is resolved only once it is used).
            check.mutate({
              provider: p.id,
              baseUrl: props.url,
              ...(storage !== 'envRef' && key.trim() ? { apiKey: key } : {}),
            })
          }
          disabled={check.isPending}
        >
          {check.isPending ? 'Checking…' : 'Check'}
        </button>
        <span className="muted small">
          Tries the URL{p.needsKey ? ' and key' : ''} in this form, saved or not
          {p.needsKey ? ' (the stored key when none is typed)' : ''}.
        </span>
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
