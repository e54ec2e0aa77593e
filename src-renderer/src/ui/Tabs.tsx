// Tabs (Radix Tabs: arrow keys move between tabs, the panel is labelled by its tab). `Tabs` takes the
// tabs as data; the panels are the children, each a `TabPanel` with the tab's value.
import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { cx } from './cx';

export interface TabItem {
  value: string;
  label: ReactNode;
}

export function Tabs(props: {
  value: string;
  onValueChange: (value: string) => void;
  items: TabItem[];
  /** The tab list's accessible name. */
  label: string;
  children?: ReactNode;
  className?: string;
  /** `side`: a vertical list beside the panel (many tabs, e.g. one per server). */
  variant?: 'line' | 'side';
}) {
  const side = props.variant === 'side';
  return (
    <RadixTabs.Root
      className={cx('tabs-root', side && 'tabs-side', props.className)}
      value={props.value}
      onValueChange={props.onValueChange}
      orientation={side ? 'vertical' : 'horizontal'}
    >
      <RadixTabs.List className={side ? 'side-list' : 'tabs-list'} aria-label={props.label}>
        {props.items.map((t) => (
          <RadixTabs.Trigger key={t.value} value={t.value} className={side ? 'side-item' : 'tabs-trigger'}>
            {t.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {props.children}
    </RadixTabs.Root>
  );
}

export const TabPanel = ({ value, children }: { value: string; children: ReactNode }) => (
  <RadixTabs.Content value={value} className="tabs-panel">
    {children}
  </RadixTabs.Content>
);
