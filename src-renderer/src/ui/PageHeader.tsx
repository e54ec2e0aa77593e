// The top of every screen: its title (the same words as its sidebar entry), one line on what the screen
// is for, and the screen's actions on the right.
import type { ReactNode } from 'react';

export function PageHeader(props: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  id?: string;
}) {
  return (
    <header className="page-header">
      <div className="page-heading">
        <h1 id={props.id} className="page-title">
          {props.title}
        </h1>
        {props.description && <p className="page-description">{props.description}</p>}
      </div>
      {props.actions && <div className="page-actions">{props.actions}</div>}
    </header>
  );
}
