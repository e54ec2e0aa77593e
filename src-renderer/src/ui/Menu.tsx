// A menu of actions behind one button ("Add ▾"): Radix DropdownMenu, arrow keys and type-ahead.
import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import type { ReactElement, ReactNode } from 'react';

export interface MenuItem {
  label: string;
  icon?: ReactNode;
  description?: string;
  onSelect: () => void;
}

export function Menu({ trigger, items, label }: { trigger: ReactElement; items: MenuItem[]; label: string }) {
  return (
    <RadixMenu.Root>
      <RadixMenu.Trigger asChild>{trigger}</RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content className="menu" align="end" sideOffset={6} aria-label={label}>
          {items.map((i) => (
            <RadixMenu.Item key={i.label} className="menu-item" onSelect={i.onSelect}>
              {i.icon && (
                <span className="menu-icon" aria-hidden>
                  {i.icon}
                </span>
              )}
              <span className="menu-text">
                <span className="menu-label">{i.label}</span>
                {i.description && <span className="menu-desc">{i.description}</span>}
              </span>
            </RadixMenu.Item>
          ))}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
