// A server asks the user to open a link (spec 2025-11-25 "Elicitation", URL mode): the full URL
// and its host are shown, and it opens only after consent, and only https. In browser mode "open" is
// window.open here; in the desktop app the core opens it with the OS (shell.openExternal) on accept.
import * as Dialog from '@radix-ui/react-dialog';
import type { ElicitationUrlInteraction } from '@shared/interactions';
import { ErrorNote } from '../ErrorNote';
import type { Answer } from './answer';

export function isHttps(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

export function ElicitationUrlBody(props: {
  request: ElicitationUrlInteraction;
  send: Answer;
  busy: boolean;
  error: unknown;
  /** How the link is opened in browser mode; tests pass their own. */
  open?: (url: string) => void;
}) {
  const { request: r } = props;
  const safe = isHttps(r.url);
  const browserMode = typeof window !== 'undefined' && !window.mooring;
  const consent = () => {
    if (!safe) return;
    if (browserMode) (props.open ?? ((u) => window.open(u, '_blank', 'noopener,noreferrer')))(r.url);
    props.send({ kind: 'elicitation-url', action: 'accept' });
  };
  return (
    <>
      <Dialog.Title className="modal-title">“{r.server}” asks you to open a link</Dialog.Title>
      <p className="elicit-message">{r.message}</p>
      <p>
        It goes to{' '}
        <strong className="url-host" data-testid="url-host">
          {r.host}
        </strong>
        :
      </p>
      <pre className="url-full" data-testid="url-full">
        {r.url}
      </pre>
      {!safe && (
        <p className="danger-text" role="alert">
          This link is not https, so Mooring will not open it.
        </p>
      )}
      <p className="muted small">Open it only if you expected this and trust {r.host}.</p>
      <ErrorNote error={props.error} />
      <div className="actions">
        <button
          type="button"
          className="danger"
          disabled={props.busy}
          onClick={() => props.send({ kind: 'elicitation-url', action: 'decline' })}
        >
          Decline
        </button>
        <span className="spacer" />
        <button type="button" className="primary" disabled={props.busy || !safe} onClick={consent}>
          Open {r.host}
        </button>
      </div>
    </>
  );
}
