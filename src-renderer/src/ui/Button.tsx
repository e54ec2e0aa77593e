// Buttons (src-renderer/src/ui/README.md): one look per intent. `primary` is the one main action of a
// screen or dialog, `secondary` the rest, `ghost` quiet actions in rows and toolbars, `danger` what
// deletes or takes back. IconButton is a ghost button with only an icon: its label is its tooltip and
// its accessible name, so it is never unlabelled.
import { forwardRef, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { cx } from './cx';
import { Tooltip } from './Tooltip';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  /** An icon before the label (a lucide-react element at 16 px). */
  icon?: ReactNode;
  /** Shows a spinner and disables the button while an action runs. */
  loading?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'secondary', size = 'md', icon, loading, className, children, disabled, type, ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type ?? 'button'}
      className={cx('btn', `btn-${variant}`, size === 'sm' && 'btn-sm', className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <span className="spinner" aria-hidden /> : icon}
      {children}
    </button>
  );
});

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** The accessible name and the tooltip. */
  label: string;
  icon: ReactNode;
  variant?: 'ghost' | 'secondary' | 'danger';
  size?: 'sm' | 'md';
}

export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(function IconButton(
  { label, icon, variant = 'ghost', size = 'md', className, type, ...rest },
  ref,
) {
  return (
    <Tooltip label={label}>
      <button
        ref={ref}
        type={type ?? 'button'}
        aria-label={label}
        className={cx('btn', `btn-${variant}`, 'btn-icon', size === 'sm' && 'btn-sm', className)}
        {...rest}
      >
        {icon}
      </button>
    </Tooltip>
  );
});
