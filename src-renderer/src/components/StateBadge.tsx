// A session's live state in words (issue 5): "reconnecting 2/5", "failed: <reason>", …
import type { SessionStatus } from '@shared/session';

export function stateText(status: SessionStatus | null, enabled: boolean): string {
  if (!enabled) return 'disabled';
  if (!status) return 'not started';
  switch (status.state) {
    case 'reconnecting':
      return status.attempt ? `reconnecting ${status.attempt}/${status.maxAttempts ?? 5}` : 'reconnecting';
    case 'failed':
      return status.error ? `failed: ${status.error.message}` : 'failed';
    case 'connecting':
      return 'connecting…';
    default:
      return status.state;
  }
}

export function StateBadge({ status, enabled }: { status: SessionStatus | null; enabled: boolean }) {
  const state = enabled ? (status?.state ?? 'idle') : 'disabled';
  return (
    <span className={`badge state-${state}`} data-testid="server-state" role="status">
      {stateText(status, enabled)}
    </span>
  );
}
