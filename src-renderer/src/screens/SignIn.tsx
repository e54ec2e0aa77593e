// OAuth for a remote server: "Sign in" shows the host it sends you to before opening it;
// when signed in, the scopes and "Sign out" (which forgets tokens and registration).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { Modal } from '../components/Modal';

export function SignIn({ server, needsAuth }: { server: string; needsAuth: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const state = useQuery(trpc.auth.state.queryOptions({ name: server }));
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.auth.state.queryKey({ name: server }) });
  const [pending, setPending] = useState<{ url: string; host: string } | null>(null);
  const begin = useMutation(
    trpc.auth.begin.mutationOptions({ onSuccess: (r) => (r.url ? setPending(r) : refresh()) }),
  );
  const signOut = useMutation(trpc.auth.signOut.mutationOptions({ onSuccess: refresh }));
  const s = state.data;
  if (!s?.remote) return null;
  return (
    <div className="sign-in" data-testid={`signin-${server}`}>
      {s.signedIn ? (
        <span className="muted">
          Signed in{s.scope ? ` · ${s.scope}` : ''}{' '}
          <button type="button" className="link" onClick={() => signOut.mutate({ name: server })}>
            Sign out
          </button>
        </span>
      ) : (
        (needsAuth || s.issuer) && (
          <button type="button" disabled={begin.isPending} onClick={() => begin.mutate({ name: server })}>
            Sign in
          </button>
        )
      )}
      <ErrorNote error={begin.error ?? signOut.error} />
      <Modal
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={`Sign in to ${server}`}
        testId="signin-dialog"
      >
        <p>
          This opens <strong>{pending?.host}</strong> in your browser, where you sign in and allow Mooring to
          use {server}. Come back here afterwards: the server reconnects by itself.
        </p>
        <code className="command-line">{pending?.url}</code>
        <div className="actions">
          <button type="button" onClick={() => setPending(null)}>
            Cancel
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => {
              if (pending) window.open(pending.url, '_blank', 'noopener,noreferrer');
              setPending(null);
            }}
          >
            Open {pending?.host}
          </button>
        </div>
      </Modal>
    </div>
  );
}
