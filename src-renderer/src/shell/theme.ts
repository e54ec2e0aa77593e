// The app's colours (Settings > Appearance; `theme` in settings.json): `system` follows the OS's
// prefers-color-scheme, `light` and `dark` hold whatever the OS says. The choice resolves to one attribute
// on the root element, `data-theme="light|dark"`, which ui/tokens.css keys its dark tokens on; an MCP App
// view's host context reads the same attribute (components/apps/useHostContext.ts).
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Theme } from '@shared/settings';
import { useTRPC } from '../api/trpc';

const OS_DARK = '(prefers-color-scheme: dark)';

/** Whether the app shows its dark colours now. */
export const isDark = (): boolean => document.documentElement.dataset.theme === 'dark';

/** Resolves `choice` and sets it on the root element (at once: no reload, no flash of the other theme). */
export function applyTheme(choice: Theme): void {
  const dark = choice === 'dark' || (choice === 'system' && matchMedia(OS_DARK).matches);
  const root = document.documentElement;
  root.dataset.theme = dark ? 'dark' : 'light';
  root.dataset.themeChoice = choice;
}

/** Keeps the root element on the saved theme, and on the OS's while the choice is `system`. */
export function useTheme(): void {
  const trpc = useTRPC();
  const theme = useQuery(trpc.settings.queryOptions()).data?.theme ?? 'system';
  useEffect(() => {
    applyTheme(theme);
    if (theme !== 'system') return;
    const os = matchMedia(OS_DARK);
    const follow = () => applyTheme('system');
    os.addEventListener('change', follow);
    return () => os.removeEventListener('change', follow);
  }, [theme]);
}
