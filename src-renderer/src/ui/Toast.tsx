// Short confirmations that need no answer ("Refreshed: 13 tools", "Copied"). Radix Toast announces each
// one politely and pauses its timer while hovered or focused. Any component calls `toast(...)`; the
// app root renders <Toaster /> once.
import * as RadixToast from '@radix-ui/react-toast';
import { CheckCircle2, Info, TriangleAlert, X } from 'lucide-react';
import { create } from 'zustand';
import { cx } from './cx';

export interface ToastItem {
  id: number;
  title: string;
  description?: string;
  tone?: 'info' | 'success' | 'warning' | 'danger';
  /** One thing to do about it (e.g. open the Logs that say why); the toast stays until it is dismissed. */
  action?: { label: string; run: () => void };
}

interface ToastState {
  items: ToastItem[];
  push(t: Omit<ToastItem, 'id'>): void;
  dismiss(id: number): void;
}

let nextId = 1;
export const useToasts = create<ToastState>((set) => ({
  items: [],
  push: (t) => set((s) => ({ items: [...s.items.slice(-3), { ...t, id: nextId++ }] })),
  dismiss: (id) => set((s) => ({ items: s.items.filter((i) => i.id !== id) })),
}));

export const toast = (t: Omit<ToastItem, 'id'>) => useToasts.getState().push(t);

const ICONS = { info: Info, success: CheckCircle2, warning: TriangleAlert, danger: TriangleAlert };

export function Toaster() {
  const items = useToasts((s) => s.items);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <RadixToast.Provider duration={4500} swipeDirection="right">
      {items.map((t) => {
        const Icon = ICONS[t.tone ?? 'info'];
        return (
          <RadixToast.Root
            key={t.id}
            className={cx('toast', `tone-${t.tone ?? 'info'}`)}
            onOpenChange={(open) => !open && dismiss(t.id)}
            data-testid="toast"
            {...(t.action ? { duration: Infinity } : {})}
          >
            <Icon size={16} className="toast-icon" aria-hidden />
            <div className="toast-text">
              <RadixToast.Title className="toast-title">{t.title}</RadixToast.Title>
              {t.description && (
                <RadixToast.Description className="toast-desc">{t.description}</RadixToast.Description>
              )}
            </div>
            {t.action && (
              <RadixToast.Action altText={t.action.label} asChild>
                <button type="button" className="btn btn-secondary btn-sm" onClick={t.action.run}>
                  {t.action.label}
                </button>
              </RadixToast.Action>
            )}
            <RadixToast.Close className="btn btn-ghost btn-icon btn-sm" aria-label="Dismiss">
              <X size={14} />
            </RadixToast.Close>
          </RadixToast.Root>
        );
      })}
      <RadixToast.Viewport className="toast-viewport" label="Notifications ({hotkey})" />
    </RadixToast.Provider>
  );
}
