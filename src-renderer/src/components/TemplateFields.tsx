// A resource template's variables as fields (MCP 2025-11-25 "Resources": templates are RFC 6570 URI
// templates), each with the server's completions (MCP 2025-11-25 "Completion"), the variables already
// filled in sent as the request's context. The one form of a template's variables: the Resources screen
// reads with it, the composer attaches with it.
import { useQueryClient } from '@tanstack/react-query';
import type { ResourceTemplateView } from '@shared/resources';
import { useTRPC } from '../api/trpc';
import { CompletionInput } from './CompletionInput';

export function TemplateFields(props: {
  server: string;
  template: ResourceTemplateView;
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}) {
  const { server, template: t, values } = props;
  const trpc = useTRPC();
  const qc = useQueryClient();
  const complete = (variable: string) => async (value: string) =>
    (
      await qc.fetchQuery(
        trpc.resources.complete.queryOptions({
          server,
          uriTemplate: t.uriTemplate,
          argument: { name: variable, value },
          context: Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== variable && v)),
        }),
      )
    ).values;
  return (
    <>
      {t.variables.map((v) => (
        <label key={v} className="field-ui">
          <span className="field-label">{v}</span>
          <CompletionInput
            label={v}
            value={values[v] ?? ''}
            required
            onChange={(value) => props.onChange({ ...values, [v]: value })}
            complete={complete(v)}
          />
        </label>
      ))}
    </>
  );
}

/** The variables still empty: a template is read or attached only with every one filled in. */
export const missingVariables = (t: ResourceTemplateView, values: Record<string, string>): string[] =>
  t.variables.filter((v) => !values[v]?.trim());
