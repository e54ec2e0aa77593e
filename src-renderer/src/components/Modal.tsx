// Radix Dialog with our frame: focus trap, Escape to close, a title for screen readers. The last `.actions`
// row of its children stays in view at the bottom (styles.css). New dialogs use ui/Dialog, which has a
// footer of its own.
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

export function Modal(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
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
          <Dialog.Close className="btn btn-ghost btn-icon close-x" aria-label="Close dialog">
            <X size={16} />
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
