// A short status or property word ("ready", "read-only", "destructive"). The tone carries the meaning
// in colour; the word carries it for everyone else.
import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from './cx';

export type Tone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger';

export function Badge({
  tone = 'neutral',
  dot,
  icon,
  className,
  children,
  ...rest
}: HTMLAttributes<HTMLSpanElement> & { tone?: Tone; dot?: boolean; icon?: ReactNode }) {
  return (
    <span className={cx('ui-badge', `tone-${tone}`, className)} {...rest}>
      {dot && <span className="ui-badge-dot" aria-hidden />}
      {icon}
      {children}
    </span>
  );
}
