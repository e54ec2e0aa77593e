// Settings > Models, "Models that take images": the person's word on what a model takes, by provider:model
// (settings.json `modelCapabilities`), over what the provider's model list says and Mooring's table. Images
// from tools are shown to the person whatever is set here; this decides only what the model is sent.
import { useState } from 'react';
import { ModelSpecAdd } from './ModelSpecAdd';

export type ModelCapabilitiesValue = Record<string, { vision?: boolean; tools?: boolean }>;

export function ModelCapabilitiesField(props: {
  value: ModelCapabilitiesValue;
  onChange: (v: ModelCapabilitiesValue) => void;
}) {
  const [vision, setVision] = useState(true);
  const rows = Object.entries(props.value).filter(([, c]) => c.vision !== undefined);
  const set = (key: string, v: boolean | undefined) => {
    const { vision: _old, ...rest } = props.value[key] ?? {};
    const next = { ...props.value, [key]: v === undefined ? rest : { ...rest, vision: v } };
    if (Object.keys(next[key]!).length === 0) delete next[key];
    props.onChange(next);
  };
  return (
    <fieldset className="provider" data-testid="model-capabilities">
      <legend>Models that take images</legend>
      <p className="muted small" id="model-caps-note">
        Images from tools are always shown to you. Whether they are also sent to the model follows the
        provider&apos;s model list where it says, else Mooring&apos;s table; set it here for a model that
        takes images (or does not) against those.
      </p>
      {rows.length > 0 && (
        <ul className="model-caps" aria-label="Models you set">
          {rows.map(([key, c]) => (
            <li key={key} className="inline" data-testid={`model-caps-${key}`}>
              <code>{key}</code>
              <select
                aria-label={`Images for ${key}`}
                value={c.vision ? 'yes' : 'no'}
                onChange={(e) => set(key, e.target.value === 'yes')}
              >
                <option value="yes">takes images</option>
                <option value="no">does not take images</option>
              </select>
              <button type="button" onClick={() => set(key, undefined)} aria-label={`Forget ${key}`}>
                Forget
              </button>
            </li>
          ))}
        </ul>
      )}
      <ModelSpecAdd
        label="Model to set (provider:model)"
        noteId="model-caps-note"
        placeholder="openai:my-local-model"
        onAdd={(spec) => set(spec, vision)}
      >
        <label className="inline">
          <input type="checkbox" checked={vision} onChange={(e) => setVision(e.target.checked)} /> Takes
          images
        </label>
      </ModelSpecAdd>
      <p className="muted small">Saved with Save below; takes effect from the next message.</p>
    </fieldset>
  );
}
