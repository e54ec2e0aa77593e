// A server's stderr and log messages, live (issue 5): the query holds the ring buffer's lines, the
// event stream appends new ones.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTRPC } from '../api/trpc';
import { Modal } from '../components/Modal';

export function LogsDialog({ server, onClose }: { server: string; onClose: () => void }) {
  const trpc = useTRPC();
  const logs = useQuery(trpc.servers.logs.queryOptions({ name: server }));
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [logs.data?.length]);
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={`Logs of ${server}`} wide testId="logs-dialog">
      <div className="logs" role="log" aria-live="polite">
        {(logs.data ?? []).length === 0 && <p className="muted">No log lines yet.</p>}
        {(logs.data ?? []).map((l, i) => (
          <div key={i} className={`log-line level-${l.level}`}>
            <time>{new Date(l.at).toLocaleTimeString()}</time> <span className="badge">{l.source}</span>{' '}
            {l.text}
          </div>
        ))}
        <div ref={end} />
      </div>
    </Modal>
  );
}
