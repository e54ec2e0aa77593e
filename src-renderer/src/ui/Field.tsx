// A form field: its label, the control, a hint under it, and an error in place of the hint. The label
// wraps the control only (so the control's accessible name is the label alone, and clicking the label
// focuses it); the hint or error describes the control through aria-describedby.
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { cx } from './cx';

export function Field(props: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** One control (input, select, textarea). */
  children: ReactElement<{ 'aria-describedby'?: string }>;
  className?: string;
}) {
  const id = useId();
  const note = props.error || props.hint ? `${id}-note` : undefined;
  const control = isValidElement(props.children)
    ? cloneElement(props.children, { 'aria-describedby': note })
    : props.children;
  return (
    <div className={cx('field-ui', props.className)}>
      <label className="field-control">
        <span className="field-label">{props.label}</span>
        {control}
      </label>
      {props.error ? (
        <span id={note} className="field-error" role="alert">
          {props.error}
        </span>
      ) : (
        props.hint && (
          <span id={note} className="field-hint">
            {props.hint}
          </span>
        )
      )}
    </div>
  );
}
