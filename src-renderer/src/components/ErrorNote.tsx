// An error as data: what happened, and what to do about it (the hint). With `details`, only the first line
// of the message is the title; what follows it (an OS's own words, a stderr tail) folds away beneath.
import { splitErrorDetails } from '@shared/errors';
import { errorOf } from '../api/errors';

export function ErrorNote({
  error,
  testId,
  details,
}: {
  error: unknown;
  testId?: string;
  details?: boolean;
}) {
  const e = errorOf(error);
  if (!e) return null;
  const parts = details ? splitErrorDetails(e.message) : { summary: e.message };
  return (
    <div className="error-note" role="alert" data-testid={testId}>
      <strong>{parts.summary}</strong>
      {e.hint && <p className="hint">{e.hint}</p>}
      {parts.details && (
        <details>
          <summary>Details</summary>
          <pre className="error-details">{parts.details}</pre>
        </details>
      )}
    </div>
  );
}
