// A session's live state in a word or two ("ready", "reconnecting 2/5", "failed"): the badge stays short;
// why a server failed is shown as a block below its row (ServerErrorBlock), not squeezed in here. The
// words are shared/session.ts's stateText, the same `mooring mcp list` prints.
import { stateText, type SessionStatus } from '@shared/session';
import { Badge, type Tone } from '../ui';

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
