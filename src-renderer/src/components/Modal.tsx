// Radix Dialog with our frame: focus trap, Escape to close, a title for screen readers.
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

export function Modal(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  wide?: boolean;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content
          className={`modal${props.wide ? ' wide' : ''}`}
          data-testid={props.testId}
          aria-describedby={undefined}
        >
          <Dialog.Close className="close-x" aria-label="Close dialog">
            ✕
          </Dialog.Close>
          <Dialog.Title className="modal-title">{props.title}</Dialog.Title>
          {props.description && (
            <Dialog.Description className="muted">{props.description}</Dialog.Description>
          )}
          {props.children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
