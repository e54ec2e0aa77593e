// The row under a Settings > Models list of models (ModelCapabilities.tsx, CodeModeModels.tsx): a
// provider:model field with the providers' suggestions, the list's own controls, and Add, enabled for a
// well-formed spec the list does not hold yet.
import { useState, type ReactNode } from 'react';

const SPEC = /^(ollama|openai|anthropic):.+$/;

export function ModelSpecAdd(props: {
  label: string;
  /** The id of the list's note, which says what the field is for. */
  noteId: string;
  placeholder: string;
  taken?: (spec: string) => boolean;
  onAdd: (spec: string) => void;
  children?: ReactNode;
}) {
  const [spec, setSpec] = useState('');
  const typed = spec.trim();
  return (
    <div className="inline model-caps-add">
      <input
        aria-label={props.label}
        aria-describedby={props.noteId}
        placeholder={props.placeholder}
        value={spec}
        onChange={(e) => setSpec(e.target.value)}
        list="model-suggestions"
      />
      {props.children}
      <button
        type="button"
        disabled={!SPEC.test(typed) || Boolean(props.taken?.(typed))}
        onClick={() => {
          props.onAdd(typed);
          setSpec('');
        }}
      >
        Add
      </button>
    </div>
  );
}
