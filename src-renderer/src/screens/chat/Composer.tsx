// The composer (ARCHITECTURE.md, "A turn in the chat"): Enter sends, Shift+Enter is a new line; typing `/`
// lists every server's prompts as slash commands, choosing one opens a small form for its arguments,
// and its messages (prompts/get) are inserted into the composer for the user to read and send.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ImageIcon, FileText, Paperclip, X } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AttachedTextFile } from '@shared/attachedFiles';
import type { ImagePart } from '@shared/chat';
import type { SlashCommandView } from '@shared/wire';
import { IconButton } from '../../ui';
import { readAttachment, type Attachment } from './attachments';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { McpIcon } from '../../components/McpIcon';
import { useChat } from './chatStore';

export function Composer(props: {
  running: boolean;
  sending: boolean;
  onSend: (text: string, attached: { images: ImagePart[]; files: AttachedTextFile[] }) => void;
  onCancel: () => void;
  /** The chosen model and whether it takes images (undefined: not known). */
  model?: { spec: string; vision?: boolean };
}) {
  const trpc = useTRPC();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [prompt, setPrompt] = useState<SlashCommandView | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  // New conversation and Shift+Escape ask for the message box (a new composer mounts with the request).
  const wantsFocus = useChat((s) => s.composerFocus);
  const focusComposer = useChat((s) => s.focusComposer);
  useEffect(() => {
    if (!wantsFocus) return;
    area.current?.focus();
    focusComposer(false);
  }, [wantsFocus, focusComposer]);
  const slash = /^\/(\S*)$/.exec(text);
  const prompts = useQuery({ ...trpc.chat.prompts.queryOptions(), enabled: !!slash });
  const matches = slash
    ? (prompts.data ?? []).filter((p) => p.command.toLowerCase().startsWith(slash[1]!.toLowerCase()))
    : [];

  const [files, setFiles] = useState<Attachment[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const picker = useRef<HTMLInputElement>(null);
  const attach = async (list: FileList | File[]) => {
    const read = await Promise.all([...list].map(readAttachment));
    setFiles((f) => [...f, ...read.filter((r): r is Attachment => !('error' in r))]);
    setRefused(read.flatMap((r) => ('error' in r ? [r.error] : [])));
  };
  const images = files.flatMap((f) => (f.kind === 'image' ? [f.image] : []));
  const ready = text.trim() !== '' || files.length > 0;
  const send = () => {
    if (!ready || props.running || props.sending) return;
    props.onSend(text, {
      images,
      files: files.flatMap((f) => (f.kind === 'text' ? [{ name: f.name, text: f.text }] : [])),
    });
    setText('');
    setFiles([]);
    setRefused([]);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (matches.length) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        setPrompt(matches[Math.min(active, matches.length - 1)]!);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send();
    }
  };

  return (
    <div
      className="composer"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) e.preventDefault();
      }}
      onDrop={(e) => {
        if (!e.dataTransfer.files.length) return;
        e.preventDefault();
        void attach(e.dataTransfer.files);
      }}
    >
      {slash && (
        <ul className="slash-list" role="listbox" aria-label="Prompts" data-testid="slash-list">
          {prompts.isLoading && <li className="muted">Loading prompts…</li>}
          {!prompts.isLoading && matches.length === 0 && (
            <li className="muted">No server offers a prompt named like that.</li>
          )}
          {matches.map((p, i) => (
            <li key={`${p.server}/${p.name}`}>
              <button
                type="button"
                role="option"
                aria-selected={i === active}
                className={i === active ? 'active' : ''}
                onClick={() => setPrompt(p)}
              >
                <McpIcon src={p.icon} />
                <strong>/{p.command}</strong> <span className="muted">{p.server}</span>
                {p.description && <span className="muted small"> — {p.description}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {prompt && (
        <PromptForm
          prompt={prompt}
          onClose={() => setPrompt(null)}
          onInsert={(inserted) => {
            setText(inserted);
            setPrompt(null);
          }}
        />
      )}
      {(files.length > 0 || refused.length > 0) && (
        <div className="attachments" data-testid="attachments">
          <ul className="plain attachment-list" aria-label="Attached files">
            {files.map((f, i) => (
              <li key={`${f.name}-${i}`} className="attachment">
                {f.kind === 'image' ? (
                  <img src={`data:${f.image.mimeType};base64,${f.image.data}`} alt="" />
                ) : (
                  <FileText size={16} aria-hidden />
                )}
                <span>{f.name}</span>
                <IconButton
                  size="sm"
                  label={`Remove ${f.name}`}
                  icon={<X size={14} />}
                  onClick={() => setFiles(files.filter((_, j) => j !== i))}
                />
              </li>
            ))}
          </ul>
          {images.length > 0 && props.model?.vision === false && (
            <p className="attachment-note" data-testid="no-vision-note">
              <ImageIcon size={14} aria-hidden /> {props.model.spec} does not take images: it gets a note in
              place of each one. Choose a model that takes images to send them.
            </p>
          )}
          {refused.map((r) => (
            <p key={r} className="danger-text small" role="alert">
              {r}
            </p>
          ))}
        </div>
      )}
      <div className="composer-row">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="attach-input"
          onChange={(e) => {
            if (e.target.files) void attach(e.target.files);
            e.target.value = '';
          }}
        />
        <IconButton
          label="Attach images or text files"
          icon={<Paperclip size={16} />}
          onClick={() => picker.current?.click()}
        />
        <textarea
          ref={area}
          id="chat-composer"
          aria-label="Message"
          placeholder="Ask something. Type / for the servers' prompts; drop or paste images and text files."
          rows={3}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKey}
          onPaste={(e) => {
            if (!e.clipboardData.files.length) return;
            e.preventDefault();
            void attach(e.clipboardData.files);
          }}
        />
        {props.running ? (
          <button type="button" className="danger" onClick={props.onCancel}>
            Stop
          </button>
        ) : (
          <button type="button" className="primary" onClick={send} disabled={!ready || props.sending}>
            Send
          </button>
        )}
      </div>
    </div>
  );
}

function PromptForm(props: {
  prompt: SlashCommandView;
  onClose: () => void;
  onInsert: (text: string) => void;
}) {
  const { prompt } = props;
  const trpc = useTRPC();
  const [args, setArgs] = useState<Record<string, string>>({});
  const get = useMutation(
    trpc.chat.getPrompt.mutationOptions({
      onSuccess: (r) => props.onInsert(r.messages.map((m) => m.text).join('\n\n')),
    }),
  );
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim());
  return (
    <form
      className="prompt-form"
      data-testid="prompt-form"
      aria-label={`Prompt ${prompt.command}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (missing.length) return;
        get.mutate({ server: prompt.server, name: prompt.name, arguments: args });
      }}
    >
      <p>
        <strong>/{prompt.command}</strong> <span className="muted">from {prompt.server}</span>
        {prompt.description && <span className="muted small"> — {prompt.description}</span>}
      </p>
      {prompt.arguments.length === 0 && <p className="muted small">This prompt takes no arguments.</p>}
      {prompt.arguments.map((a) => (
        <label key={a.name} className="stack">
          <span>
            {a.name}
            {a.required ? ' (required)' : ''}
            {a.description && <span className="muted small"> — {a.description}</span>}
          </span>
          <input
            value={args[a.name] ?? ''}
            onChange={(e) => setArgs({ ...args, [a.name]: e.target.value })}
            aria-required={a.required}
          />
        </label>
      ))}
      <ErrorNote error={get.error} />
      <div className="actions">
        <button type="button" onClick={props.onClose}>
          Close
        </button>
        <span className="spacer" />
        <button type="submit" className="primary" disabled={missing.length > 0 || get.isPending}>
          Insert prompt
        </button>
      </div>
    </form>
  );
}
