// Resources attached to a message (shared/chat.ts `AttachedResource`): their chips, in the composer
// (removable) and on the sent message (so the transcript says what was attached), and the form that turns
// a picked template into a URI to attach (its variables with the server's completions: TemplateFields,
// the same form the Resources screen reads with). The server's strings are text, cut with an ellipsis,
// whole in the tooltip.
import { useMutation } from '@tanstack/react-query';
import { AtSign, BookOpen, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { AttachedResource } from '@shared/chat';
import type { ResourceTemplateView } from '@shared/resources';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { missingVariables, TemplateFields } from '../../components/TemplateFields';
import { Button, IconButton } from '../../ui';

/** What one message can carry (the router's limit on `chat.send`). */
export const MAX_ATTACHED_RESOURCES = 20;

export const sameResource = (a: AttachedResource, b: AttachedResource) =>
  a.server === b.server && a.uri === b.uri;

export function ResourceChips(props: { resources: AttachedResource[]; onRemove?: (i: number) => void }) {
  return (
    <ul className="plain attachment-list" aria-label="Attached resources" data-testid="resource-chips">
      {props.resources.map((r, i) => {
        const name = r.name ?? r.uri;
        return (
          <li
            key={`${r.server}\n${r.uri}`}
            className="attachment resource-chip"
            data-testid="resource-chip"
            title={`${r.server} · ${name}\n${r.uri}`}
          >
            {r.skill ? <BookOpen size={14} aria-hidden /> : <AtSign size={14} aria-hidden />}
            <span className="resource-chip-text">
              {r.server} · {r.skill ? `skill ${name}` : name}
            </span>
            {props.onRemove && (
              <IconButton
                size="sm"
                label={`Remove ${name}`}
                icon={<X size={14} />}
                onClick={() => props.onRemove!(i)}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** A picked template: its variables, then Attach makes its URI (nothing is read until the message is sent). */
export function TemplateAttachForm(props: {
  server: string;
  template: ResourceTemplateView;
  onAttach: (resource: AttachedResource) => void;
  onClose: () => void;
}) {
  const { server, template: t } = props;
  const trpc = useTRPC();
  const [values, setValues] = useState<Record<string, string>>({});
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector('input')?.focus(), []);
  const expand = useMutation(
    trpc.resources.expand.mutationOptions({ onSuccess: ({ uri }) => props.onAttach({ server, uri }) }),
  );
  const missing = missingVariables(t, values);
  return (
    <form
      ref={form}
      className="prompt-form template-attach"
      data-testid="template-attach"
      aria-label={`Attach ${t.title ?? t.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (!missing.length) expand.mutate({ uriTemplate: t.uriTemplate, variables: values });
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault();
          props.onClose();
        }
      }}
    >
      <p className="template-attach-title" title={[t.uriTemplate, t.description].filter(Boolean).join('\n')}>
        <strong>{t.title ?? t.name}</strong> <span className="muted">from {server}</span>{' '}
        <code className="resource-option-uri">{t.uriTemplate}</code>
      </p>
      <div className="template-fields">
        <TemplateFields server={server} template={t} values={values} onChange={setValues} />
      </div>
      <ErrorNote error={expand.error} />
      <div className="actions">
        <button type="button" onClick={props.onClose}>
          Close
        </button>
        <span className="spacer" />
        <Button type="submit" variant="primary" loading={expand.isPending} disabled={missing.length > 0}>
          Attach
        </Button>
      </div>
    </form>
  );
}
