// A short label on hover and keyboard focus (Radix Tooltip: it is announced, Escape closes it). The app
// root holds one TooltipProvider so every tooltip shares one delay.
import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';

export const TooltipProvider = ({ children }: { children: ReactNode }) => (
  <RadixTooltip.Provider delayDuration={350} skipDelayDuration={200}>
    {children}
  </RadixTooltip.Provider>
);

export function Tooltip({
  label,
  children,
  side = 'top',
}: {
  label: ReactNode;
  /** One element that takes a ref (a button, a link). */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
}) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content className="tooltip" side={side} sideOffset={6}>
          {label}
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
