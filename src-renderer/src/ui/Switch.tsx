// An on/off switch (Radix Switch: role="switch", Space toggles it). A visible label is the default;
// `label` may be visually hidden when the row around it already says what it switches.
import * as RadixSwitch from '@radix-ui/react-switch';
import { useId, type ReactNode } from 'react';
import { cx } from './cx';

export interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** The accessible name; shown beside the switch unless `hideLabel`. */
  label: string;
  hideLabel?: boolean;
  /** A line under the label: what turning it on means. */
  description?: ReactNode;
  disabled?: boolean;
  className?: string;
  size?: 'sm' | 'md';
}

export function Switch(props: SwitchProps) {
  const id = useId();
  const descId = props.description ? `${id}-desc` : undefined;
  return (
    <div className={cx('switch-field', props.className)}>
      <RadixSwitch.Root
        id={id}
        className={cx('switch', props.size === 'sm' && 'switch-sm')}
        checked={props.checked}
        onCheckedChange={props.onCheckedChange}
        disabled={props.disabled}
        aria-label={props.hideLabel ? props.label : undefined}
        aria-describedby={descId}
      >
        <RadixSwitch.Thumb className="switch-thumb" />
      </RadixSwitch.Root>
      {!props.hideLabel && (
        <div className="switch-text">
          <label htmlFor={id} className="switch-label">
            {props.label}
          </label>
          {props.description && (
            <div id={descId} className="switch-desc">
              {props.description}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
