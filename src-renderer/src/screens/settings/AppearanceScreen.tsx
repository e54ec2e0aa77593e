// Settings > Appearance: the app's colours — the OS's choice, light or dark (shell/theme.ts). A choice
// applies at once and is saved in settings.json (`theme`; `mooring settings set theme dark` at a terminal).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { THEMES, type Theme } from '@shared/settings';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { applyTheme } from '../../shell/theme';
import { titleOf } from '../../shell/screens';
import { PageHeader } from '../../ui';
import { CliHint } from '../CliHint';
import './settings.css';

const LABEL: Record<Theme, { name: string; says: string }> = {
  system: {
    name: 'System',
    says: 'Light or dark as your operating system is set, following it when it changes.',
  },
  light: { name: 'Light', says: 'Always light.' },
  dark: { name: 'Dark', says: 'Always dark.' },
};

export function AppearanceScreen() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const settings = useQuery(trpc.settings.queryOptions());
  const key = trpc.settings.queryKey();
  const save = useMutation(
    trpc.setTheme.mutationOptions({
      // The choice is the cached settings' at once, so the root element (useTheme) never goes back to an
      // older one: a read of settings.json still under way is dropped, and the file is read back only
      // after the last of quick choices, not between two of them.
      onMutate: async ({ theme }) => {
        await qc.cancelQueries({ queryKey: key });
        qc.setQueryData(key, (old) => old && { ...old, theme });
      },
      onSettled: () => {
        if (qc.isMutating({ mutationKey: trpc.setTheme.mutationKey() }) === 1)
          void qc.invalidateQueries({ queryKey: key });
      },
    }),
  );
  // The choice shows at once, before settings.json is read back.
  const [chosen, setChosen] = useState<Theme | null>(null);
  const current = chosen ?? settings.data?.theme ?? 'system';
  return (
    <section aria-labelledby="appearance-title" className="settings">
      <PageHeader id="appearance-title" title={titleOf('appearance')} description="How Mooring looks." />
      <div className="panel">
        <fieldset className="theme-choice" data-testid="theme-choice">
          <legend>Theme</legend>
          {THEMES.map((t) => (
            <label key={t} className="theme-option">
              <input
                type="radio"
                name="theme"
                value={t}
                checked={current === t}
                aria-describedby={`theme-${t}-says`}
                onChange={() => {
                  setChosen(t);
                  applyTheme(t);
                  save.mutate({ theme: t });
                }}
              />
              <span>
                <strong>{LABEL[t].name}</strong>
                <span id={`theme-${t}-says`} className="muted small">
                  {LABEL[t].says}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <ErrorNote error={save.error ?? settings.error} />
      </div>
      <CliHint commands={['mooring settings set theme dark']} />
    </section>
  );
}
