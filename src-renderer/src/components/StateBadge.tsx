// A session's live state in a word or two ("ready", "reconnecting 2/5", "failed"): the badge stays short;
// why a server failed is shown as a block below its row (ServerErrorBlock), not squeezed in here.
import type { SessionStatus } from '@shared/session';
import { Badge, type Tone } from '../ui';

export function stateText(status: SessionStatus | null, enabled: boolean): string {
  if (!enabled) return 'disabled';
  if (!status) return 'not started';
  switch (status.state) {
    case 'reconnecting':
      return status.attempt ? `reconnecting ${status.attempt}/${status.maxAttempts ?? 5}` : 'reconnecting';
    case 'connecting':
      return 'connecting…';
    default:
      return status.state;
  }
}

const TONE: Record<string, Tone> = {
  ready: 'success',
  failed: 'danger',
  reconnecting: 'warning',
  connecting: 'accent',
};

export function StateBadge({ status, enabled }: { status: SessionStatus | null; enabled: boolean }) {
  const state = enabled ? (status?.state ?? 'idle') : 'disabled';
  return (
    <Badge tone={TONE[state] ?? 'neutral'} dot data-testid="server-state" role="status">
      {stateText(status, enabled)}
    </Badge>
  );
}
