// A few controls behind one button (a field or two that would crowd a toolbar): Radix Popover, so focus
// moves into it on open, Escape and a click outside close it, and focus returns to the button.
import * as RadixPopover from '@radix-ui/react-popover';
import type { ReactElement, ReactNode } from 'react';

export function Popover({
  trigger,
  label,
  children,
  testId,
  onClose,
  align = 'end',
}: {
  trigger: ReactElement;
  /** The accessible name of the popover's content. */
  label: string;
  children: ReactNode;
  testId?: string;
  /** It closed (Escape, a click or the focus outside): the moment to keep what was typed in it. */
  onClose?: () => void;
  /** Which edge of the trigger the content lines up with. */
  align?: 'start' | 'center' | 'end';
}) {
  return (
    <RadixPopover.Root onOpenChange={(open) => !open && onClose?.()}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          className="popover"
          align={align}
          sideOffset={6}
          collisionPadding={8}
          aria-label={label}
          data-testid={testId}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
