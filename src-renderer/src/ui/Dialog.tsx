// A modal dialog (Radix Dialog: focus trapped and restored, Escape closes, titled for screen readers)
// in three parts: a header, a body that scrolls, and a footer that stays in view, so the main action is
// never pushed below the fold by what the body shows (a test result, a long list).
import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cx } from './cx';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** The action row: Cancel, then the main action last. */
  footer?: ReactNode;
  children?: ReactNode;
  testId?: string;
  /** For a question that must be answered (an approval): no close button, Escape and outside clicks do nothing. */
  modalOnly?: boolean;
  /** Which element gets focus first (default: the first focusable one). */
  onOpenAutoFocus?: (e: Event) => void;
}

export function Dialog(props: DialogProps) {
  const block = (e: Event) => props.modalOnly && e.preventDefault();
  return (
    <RadixDialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={cx('dialog', `dialog-${props.size ?? 'md'}`)}
          data-testid={props.testId}
          aria-describedby={undefined}
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onOpenAutoFocus={props.onOpenAutoFocus}
        >
          <div className="dialog-header">
            <div className="dialog-heading">
              <RadixDialog.Title className="dialog-title">{props.title}</RadixDialog.Title>
              {props.description && (
                <RadixDialog.Description className="dialog-description">
                  {props.description}
                </RadixDialog.Description>
              )}
            </div>
            {!props.modalOnly && (
              <RadixDialog.Close className="btn btn-ghost btn-icon" aria-label="Close dialog">
                <X size={16} />
              </RadixDialog.Close>
            )}
          </div>
          <div className="dialog-body">{props.children}</div>
          {props.footer && <div className="dialog-footer">{props.footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
