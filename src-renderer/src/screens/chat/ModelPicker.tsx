// The chat's model picker: every configured provider's own model list (models.list), each model with
// what it takes, so a person picks rather than types. Typing a `provider:model` in the field beside it
// stays possible for a model a provider does not list (a new one, a local alias).
import { useQuery } from '@tanstack/react-query';
import { ChevronDown } from 'lucide-react';
import type { ModelChoice } from '@shared/wire';
import { useTRPC } from '../../api/trpc';
import { Button, Menu, type MenuItem } from '../../ui';

export const describeModel = (m: ModelChoice): string =>
  [m.tools ? 'takes tools' : 'tools through text', m.vision ? 'takes images' : 'no images'].join(' · ');

export function ModelPicker({ onPick }: { onPick: (spec: string) => void }) {
  const trpc = useTRPC();
  const list = useQuery({ ...trpc.models.list.queryOptions(), staleTime: 60_000 });
  const items: MenuItem[] = (list.data ?? []).flatMap((p) =>
    p.models.map((m) => ({ label: m.spec, description: describeModel(m), onSelect: () => onPick(m.spec) })),
  );
  const unreachable = (list.data ?? []).filter((p) => p.error).map((p) => p.provider);
  if (!items.length) return null;
  return (
    <Menu
      label="Models"
      items={items}
      trigger={
        <Button
          size="sm"
          icon={<ChevronDown size={14} />}
          data-testid="model-picker"
          title={unreachable.length ? `Not reachable: ${unreachable.join(', ')}` : undefined}
        >
          Choose
        </Button>
      }
    />
  );
}

/** What the chosen model takes, for the line under the header (or nothing when it is not listed). */
export function useModelChoice(spec: string): ModelChoice | undefined {
  const trpc = useTRPC();
  const list = useQuery({ ...trpc.models.list.queryOptions(), staleTime: 60_000 });
  return list.data?.flatMap((p) => p.models).find((m) => m.spec === spec);
}
