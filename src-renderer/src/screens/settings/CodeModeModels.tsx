// Settings > Models, "Models that start in code mode" (docs/code-mode.md, "The switch"): by provider:model
// (settings.json `codeModeModels`), a new conversation with one of these models starts in code mode; the
// conversation's own switch still turns it off.
import { ModelSpecAdd } from './ModelSpecAdd';

export function CodeModeModelsField(props: { value: string[]; onChange: (v: string[]) => void }) {
  return (
    <fieldset className="provider" data-testid="code-mode-models">
      <legend>Models that start in code mode</legend>
      <p className="muted small" id="code-mode-models-note">
        A new conversation with one of these models starts in code mode: the model writes one short program
        that calls many tools, each call approved as usual. Small local models gain most. The
        conversation&apos;s own Code mode switch still turns it off.
      </p>
      {props.value.length > 0 && (
        <ul className="model-caps" aria-label="Models that start in code mode">
          {props.value.map((key) => (
            <li key={key} className="inline" data-testid={`code-mode-model-${key}`}>
              <code>{key}</code>
              <button
                type="button"
                onClick={() => props.onChange(props.value.filter((k) => k !== key))}
                aria-label={`Stop starting ${key} in code mode`}
              >
                Forget
              </button>
            </li>
          ))}
        </ul>
      )}
      <ModelSpecAdd
        label="Model to start in code mode (provider:model)"
        noteId="code-mode-models-note"
        placeholder="ollama:qwen3:4b"
        taken={(spec) => props.value.includes(spec)}
        onAdd={(spec) => props.onChange([...props.value, spec])}
      />
      <p className="muted small">Saved with Save below; takes effect for the next new conversation.</p>
    </fieldset>
  );
}
