// A bordered surface that groups one thing: a server, a permission, a settings section.
import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from './cx';

export function Card({
  className,
  children,
  padded = true,
  ...rest
}: HTMLAttributes<HTMLDivElement> & { padded?: boolean }) {
  return (
    <div className={cx('ui-card', padded && 'ui-card-padded', className)} {...rest}>
      {children}
    </div>
  );
}

/** A card's title row: the heading, then what acts on the card (buttons, a switch). */
export function CardHeader({
  title,
  actions,
  sub,
}: {
  title: ReactNode;
  actions?: ReactNode;
  sub?: ReactNode;
}) {
  return (
    <div className="ui-card-header">
      <div className="ui-card-heading">
        <div className="ui-card-title">{title}</div>
        {sub && <div className="ui-card-sub">{sub}</div>}
      </div>
      {actions && <div className="ui-card-actions">{actions}</div>}
    </div>
  );
}
