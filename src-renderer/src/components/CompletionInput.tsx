// A text field with the server's suggestions (MCP 2025-11-25 "Completion"): a prompt's argument or a
// resource template's variable. While it has focus, the suggestions for what is typed so far are listed
// under it; a click, or the arrow keys and Enter, picks one. The suggestions are server text, rendered
// as text. A server without completions, or a failed request, simply offers none.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import './completion.css';

/** Suggestions shown at once; typing narrows them. */
const SHOWN = 10;

export function CompletionInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The server's suggestions for `value` (the caller passes the other fields as context). */
  complete: (value: string) => Promise<string[]>;
  required?: boolean;
  'aria-describedby'?: string;
}) {
  const listId = useId();
  const [focused, setFocused] = useState(false);
  const [items, setItems] = useState<string[]>([]);
  const [active, setActive] = useState(-1);
  const { value } = props;
  // The latest `complete` (a new function each render of the caller) without asking again on each one:
  // suggestions are asked when the field gains focus and when its value changes.
  const complete = useRef(props.complete);
  complete.current = props.complete;

  useEffect(() => {
    if (!focused) return;
    let current = true;
    complete
      .current(value)
      .catch(() => [] as string[])
      .then((values) => {
        if (!current) return;
        setItems(values.slice(0, SHOWN));
        setActive(-1);
      });
    return () => {
      current = false;
    };
  }, [focused, value]);

  const open = focused && items.length > 0 && !(items.length === 1 && items[0] === value);
  const pick = (v: string) => {
    props.onChange(v);
    setItems([]);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!open) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = items.length;
      setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : (a - 1 + n) % n));
    } else if (e.key === 'Enter' && active >= 0) {
      e.preventDefault();
      pick(items[active]!);
    } else if (e.key === 'Escape') {
      // Taken here: the suggestions close, not the form around the field.
      e.preventDefault();
      setItems([]);
    }
  };

  return (
    <div className="completion-input">
      <input
        aria-label={props.label}
        value={props.value}
        required={props.required}
        aria-required={props.required}
        aria-describedby={props['aria-describedby']}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        onChange={(e) => props.onChange(e.target.value)}
        onFocus={() => setFocused(true)}
        // A click on a suggestion lands before the blur (mousedown is prevented there).
        onBlur={() => setFocused(false)}
        onKeyDown={onKey}
      />
      {open && (
        <ul
          id={listId}
          className="completion-list"
          role="listbox"
          aria-label={`Suggestions for ${props.label}`}
        >
          {items.map((v, i) => (
            <li
              key={v}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(v)}
            >
              {v}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
