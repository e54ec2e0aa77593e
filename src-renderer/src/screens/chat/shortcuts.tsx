// The chat's keyboard shortcuts, in one list: the listener reads it and the shortcuts dialog shows it,
// so the two never disagree. "Mod" is Ctrl, or ⌘ on a Mac (as in the chat apps people know).
import { useEffect } from 'react';
import { Dialog } from '../../ui';

export type ShortcutAction = 'new' | 'search' | 'list' | 'composer' | 'stop' | 'help';

interface Shortcut {
  keys: string;
  does: string;
  action?: ShortcutAction;
  matches?: (e: KeyboardEvent) => boolean;
}

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey;

/**
 * New conversation: ChatGPT's Mod+Shift+O in the desktop app; in a browser that key opens the browser's
 * own bookmark manager before the page sees it, so browser mode takes Mod+Alt+N (no browser uses it).
 */
const inBrowser = typeof window !== 'undefined' && !('mooring' in window);
const NEW_CONVERSATION: Shortcut = inBrowser
  ? {
      keys: 'Mod+Alt+N',
      does: 'New conversation',
      action: 'new',
      matches: (e) => mod(e) && e.altKey && !e.shiftKey && e.code === 'KeyN',
    }
  : {
      keys: 'Mod+Shift+O',
      does: 'New conversation',
      action: 'new',
      matches: (e) => mod(e) && e.shiftKey && e.key.toLowerCase() === 'o',
    };

export const SHORTCUTS: Shortcut[] = [
  NEW_CONVERSATION,
  {
    keys: 'Mod+K',
    does: 'Search conversations',
    action: 'search',
    matches: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'k',
  },
  {
    // ChatGPT's key for its sidebar; Mod+B would be bold in the apps people write in.
    keys: 'Mod+Shift+S',
    does: 'Show or hide the conversation list',
    action: 'list',
    matches: (e) => mod(e) && e.shiftKey && e.key.toLowerCase() === 's',
  },
  {
    keys: 'Shift+Escape',
    does: 'Focus the message box',
    action: 'composer',
    matches: (e) => e.shiftKey && e.key === 'Escape',
  },
  { keys: 'Enter', does: 'Send the message' },
  { keys: 'Shift+Enter', does: 'New line in the message' },
  {
    keys: 'Escape',
    does: 'Stop the answer (when no dialog is open)',
    action: 'stop',
    matches: (e) => !e.shiftKey && !mod(e) && e.key === 'Escape',
  },
  { keys: 'Mod+/', does: 'Show these shortcuts', action: 'help', matches: (e) => mod(e) && e.key === '/' },
];

/** Listens on the window while the chat is shown; a dialog's own keys (Escape) come first. */
export function useChatShortcuts(run: (action: ShortcutAction) => boolean): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      const hit = SHORTCUTS.find((s) => s.matches?.(e));
      if (hit?.action && run(hit.action)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run]);
}

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
const shown = (keys: string) => keys.replace('Mod', isMac ? '⌘' : 'Ctrl');

export function ShortcutsDialog(props: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange} title="Keyboard shortcuts" size="sm">
      <table className="shortcuts" data-testid="shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                {shown(s.keys)
                  .split('+')
                  .map((k, i) => (
                    <span key={i}>
                      {i > 0 && '+'}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
              </td>
              <td>{s.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
