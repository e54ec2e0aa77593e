// What a screen shows when it has nothing yet: what the thing is, how to get one, and the terminal
// command that does the same (people learn the CLI from the app).
import type { ReactNode } from 'react';
import { CodeBlock } from './CodeBlock';

export function EmptyState(props: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  /** The CLI equivalent, shown as a copyable command. */
  cli?: string;
  testId?: string;
}) {
  return (
    <div className="empty-state" data-testid={props.testId}>
      {props.icon && (
        <div className="empty-icon" aria-hidden>
          {props.icon}
        </div>
      )}
      <h2 className="empty-title">{props.title}</h2>
      {props.children && <div className="empty-body">{props.children}</div>}
      {props.actions && <div className="empty-actions">{props.actions}</div>}
      {props.cli && (
        <div className="empty-cli">
          <span className="empty-cli-label">From a terminal</span>
          {/* Wrapped: a command to learn from is read whole, not scrolled. */}
          <CodeBlock code={props.cli} label="Command" wrap />
        </div>
      )}
    </div>
  );
}
