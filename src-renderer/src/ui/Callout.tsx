// A message inside a screen that stays until its cause is gone: a warning about disabled tools, a hint,
// an error with what to do. (A toast is for what needs no attention; a callout is for what does.)
import { CircleAlert, Info, TriangleAlert, CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { cx } from './cx';

const ICONS = { info: Info, success: CheckCircle2, warning: TriangleAlert, danger: CircleAlert };

export function Callout(props: {
  tone?: 'info' | 'success' | 'warning' | 'danger';
  title?: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  role?: 'status' | 'alert' | 'note';
  testId?: string;
  className?: string;
}) {
  const tone = props.tone ?? 'info';
  const Icon = ICONS[tone];
  return (
    <div
      className={cx('callout', `tone-${tone}`, props.className)}
      role={props.role}
      data-testid={props.testId}
    >
      <Icon size={16} className="callout-icon" aria-hidden />
      <div className="callout-text">
        {props.title && <div className="callout-title">{props.title}</div>}
        {props.children && <div className="callout-body">{props.children}</div>}
      </div>
      {props.actions && <div className="callout-actions">{props.actions}</div>}
    </div>
  );
}
