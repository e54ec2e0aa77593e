// What a person can do with a message (docs/chat.md, "A turn in the chat"): copy it; edit one of
// their own and send it again, which branches the conversation there (the later messages are replaced);
// answer the last question again. Edit and regenerate are offered only while nothing is answering.
import { Check, Copy, Pencil, RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button, copyText, IconButton } from '../../ui';

export interface MessageActionHandlers {
  /** Nothing is answering: a branch may start. */
  idle: boolean;
  onEdit: (messageId: string, text: string) => void;
  onRegenerate: () => void;
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <IconButton
      size="sm"
      label={copied ? 'Copied' : label}
      icon={copied ? <Check size={14} /> : <Copy size={14} />}
      onClick={async () => {
        if (await copyText(text)) {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        }
      }}
    />
  );
}

export function UserActions(props: { text: string; idle: boolean; onEdit: () => void }) {
  return (
    <div className="msg-actions" data-testid="user-actions">
      <CopyButton text={props.text} label="Copy text" />
      {props.idle && (
        <IconButton size="sm" label="Edit and ask again" icon={<Pencil size={14} />} onClick={props.onEdit} />
      )}
    </div>
  );
}

export function TurnActions(props: { text: string; last: boolean; handlers?: MessageActionHandlers }) {
  return (
    <div className="msg-actions" data-testid="turn-actions">
      {props.text && <CopyButton text={props.text} label="Copy answer" />}
      {props.last && props.handlers?.idle && (
        <IconButton
          size="sm"
          label="Regenerate answer"
          icon={<RefreshCw size={14} />}
          onClick={props.handlers.onRegenerate}
        />
      )}
    </div>
  );
}

/** The person's message in an editor: sending replaces it and everything after it. */
export function EditMessage(props: { text: string; onSend: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(props.text);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    area.current?.focus();
    area.current?.select();
  }, []);
  return (
    <form
      className="msg-edit"
      aria-label="Edit your text"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) props.onSend(text);
      }}
    >
      <textarea
        ref={area}
        aria-label="Edited text"
        value={text}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            if (text.trim()) props.onSend(text);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            props.onCancel();
          }
        }}
      />
      <p className="muted small">Sending replaces this message and everything after it.</p>
      <div className="msg-edit-actions">
        <Button size="sm" variant="ghost" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" type="submit" disabled={!text.trim()}>
          Send
        </Button>
      </div>
    </form>
  );
}
