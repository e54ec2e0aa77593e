// A form field: its label, the control, a hint under it, and an error in place of the hint. The label
// wraps the control, so clicking the label focuses it and the control's accessible name is the label.
import type { ReactNode } from 'react';
import { cx } from './cx';

export function Field(props: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
  className?: string;
}) {
  return (
    <label className={cx('field-ui', props.className)}>
      <span className="field-label">{props.label}</span>
      {props.children}
      {props.error ? (
        <span className="field-error" role="alert">
          {props.error}
        </span>
      ) : (
        props.hint && <span className="field-hint">{props.hint}</span>
      )}
    </label>
  );
}
