// An error as data: what happened, and what to do about it (the hint).
import { errorOf } from '../api/errors';

export function ErrorNote({ error, testId }: { error: unknown; testId?: string }) {
  const e = errorOf(error);
  if (!e) return null;
  return (
    <div className="error-note" role="alert" data-testid={testId}>
      <strong>{e.message}</strong>
      {e.hint && <p className="hint">{e.hint}</p>}
    </div>
  );
}
