// The add/edit form's settings a first server does not need: its log level, its sampling budget and (for a
// local command) its message size limit. Folded under "Advanced"; open when one of them is set, so an
// edit never hides a value the entry has.
import { DEFAULT_MAX_MESSAGE_MB, DEFAULT_SAMPLING_TOKENS_PER_HOUR } from '@shared/config';
import { LOG_LEVELS, type LogLevel } from '@shared/settings';
import { useState } from 'react';
import type { ServerDraft } from '../lib/serverDraft';
import { Field } from '../ui';

export function AdvancedFields({
  draft,
  set,
  stdio,
}: {
  draft: ServerDraft;
  set: (patch: Partial<ServerDraft>) => void;
  stdio: boolean;
}) {
  // A saved entry always has a message size (its default when none was written): only another one counts.
  const ownSize = draft.maxMessageMB.trim() !== '' && Number(draft.maxMessageMB) !== DEFAULT_MAX_MESSAGE_MB;
  const [open, setOpen] = useState(() => !!(draft.logLevel || draft.samplingTokensPerHour.trim() || ownSize));
  return (
    <details
      className="span-2 form-advanced"
      data-testid="server-form-advanced"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>Advanced</summary>
      <div className="form-grid">
        <Field
          label="Log level"
          hint="The least severe of its log messages it sends (MCP logging); applies to the running session."
        >
          <select value={draft.logLevel} onChange={(e) => set({ logLevel: e.target.value as LogLevel | '' })}>
            <option value="">As in Settings</option>
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Sampling budget (tokens per hour)"
          hint={`What it may spend of your model when it asks for a completion; default ${DEFAULT_SAMPLING_TOKENS_PER_HOUR.toLocaleString('en')}, 0 refuses.`}
        >
          <input
            inputMode="numeric"
            value={draft.samplingTokensPerHour}
            onChange={(e) => set({ samplingTokensPerHour: e.target.value })}
            placeholder={String(DEFAULT_SAMPLING_TOKENS_PER_HOUR)}
          />
        </Field>
        {stdio && (
          <Field
            label="Message size limit (MB)"
            hint={`Raise it for servers that return big images; default ${DEFAULT_MAX_MESSAGE_MB}. Also in Settings > Limits.`}
          >
            <input
              inputMode="decimal"
              value={draft.maxMessageMB}
              onChange={(e) => set({ maxMessageMB: e.target.value })}
              placeholder={String(DEFAULT_MAX_MESSAGE_MB)}
            />
          </Field>
        )}
      </div>
    </details>
  );
}
