// An install link the desktop shell received (mooring://, or a Cursor / VS Code link handed to Mooring): the
// consent, saying where the link came from and when it arrived. Nothing installs without Install; closing
// declines. A link that cannot be used says why.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { escapeUntrusted as shown } from '@shared/untrustedText';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { Button, Callout, Dialog } from '../../ui';
import { InstallConsent } from './InstallConsent';

const FROM = {
  mooring: 'a mooring:// link',
  cursor: 'a Cursor install link',
  vscode: 'a VS Code install link',
};

export function InstallLinkDialog() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const pending = useQuery(trpc.install.pending.queryOptions());
  const offer = pending.data?.[0];
  const plan = useMutation(trpc.install.planOffer.mutationOptions());
  const dismiss = useMutation(
    trpc.install.dismiss.mutationOptions({
      onSettled: () => {
        plan.reset();
        void qc.invalidateQueries({ queryKey: trpc.install.pending.queryKey() });
      },
    }),
  );
  // The offer closed here: hidden at once, while the core dismisses it and the list is read again.
  const [closed, setClosed] = useState<string | null>(null);
  const planOffer = plan.mutate;
  useEffect(() => {
    if (offer?.result.ok) planOffer({ id: offer.id });
  }, [offer?.id, offer?.result.ok, planOffer]);
  if (!offer || offer.id === closed) return null;
  const close = () => {
    setClosed(offer.id);
    dismiss.mutate({ id: offer.id });
  };
  const when = new Date(offer.receivedAt).toLocaleTimeString();
  if (offer.result.ok && plan.data)
    return (
      <InstallConsent
        key={plan.data.id}
        plan={plan.data}
        origin={`Mooring was opened with ${FROM[offer.result.source]} at ${when}. Install it only if you trust the page it came from.`}
        onFinished={() => close()}
      />
    );
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && close()}
      title="Install a server from a link?"
      description={
        offer.result.ok
          ? `Mooring was opened with ${FROM[offer.result.source]} at ${when}.`
          : `Mooring was opened with a link at ${when} that cannot be used.`
      }
      testId="install-link-dialog"
      footer={<Button onClick={close}>Dismiss</Button>}
    >
      {!offer.result.ok && (
        <Callout tone="danger" role="alert" title={shown(offer.result.error)}>
          {offer.result.hint}
        </Callout>
      )}
      <ErrorNote error={plan.error} />
      {offer.result.ok && plan.isPending && <p className="muted">Reading the link…</p>}
    </Dialog>
  );
}
