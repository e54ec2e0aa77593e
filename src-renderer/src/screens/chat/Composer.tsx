// The composer (docs/chat.md, "A turn in the chat"): Enter sends, Shift+Enter is a new line; typing `/`
// lists every server's prompts as slash commands (MCP 2025-11-25 "Prompts"), choosing one opens a small
// form for its arguments (PromptForm.tsx); typing `@`, or the "Attach resource" button, lists the servers'
// resources and templates to attach (composerResources.ts). A message that fails to send stays in the box
// with everything attached to it.
import { useQuery } from '@tanstack/react-query';
import { AtSign, FileText, ImageIcon, Paperclip, X } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { AttachedTextFile } from '@shared/attachedFiles';
import type { AttachedResource, ImagePart } from '@shared/chat';
import type { SlashCommandView } from '@shared/wire';
import { IconButton } from '../../ui';
import { readAttachment, type Attachment } from './attachments';
import { useTRPC } from '../../api/trpc';
import { McpIcon } from '../../components/McpIcon';
import { useChat } from './chatStore';
import { useComposerResources } from './composerResources';
import { PromptForm } from './PromptForm';
import { ResourceChips, TemplateAttachForm } from './ResourceAttach';
import { ResourcePickerPopover } from './ResourcePicker';

export function Composer(props: {
  running: boolean;
  sending: boolean;
  /** Resolves once the message is sent (the box is then emptied); rejects to keep the draft. */
  onSend: (
    text: string,
    attached: { images: ImagePart[]; files: AttachedTextFile[]; resources: AttachedResource[] },
  ) => Promise<unknown>;
  onCancel: () => void;
  /** The chosen model and whether it takes images (undefined: not known). */
  model?: { spec: string; vision?: boolean };
  /** The conversation's tools control (ConversationTools.tsx), beside the attach buttons. */
  tools?: ReactNode;
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
  const res = useComposerResources({
    text,
    setText,
    area,
    enabled: !slash,
    onRefuse: (reason) => setRefused([reason]),
  });
  const images = files.flatMap((f) => (f.kind === 'image' ? [f.image] : []));
  const ready = text.trim() !== '' || files.length > 0 || res.resources.length > 0;
  const send = () => {
    if (!ready || props.running || props.sending) return;
    const sent = text;
    // The box empties at once, so what is typed while the message is sent is the next message (were it
    // emptied on the answer, a key typed meanwhile would bring the sent text back with it); a message
    // that fails to send comes back, before anything typed since.
    setText('');
    props
      .onSend(sent, {
        images,
        files: files.flatMap((f) => (f.kind === 'text' ? [{ name: f.name, text: f.text }] : [])),
        resources: res.resources,
      })
      .then(
        () => {
          setFiles([]);
          setRefused([]);
          res.clear();
        },
        // The error shows above the composer; the draft stays to fix and send again.
        () => setText((now) => (now ? `${sent}${now}` : sent)),
      );
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
    if (res.onKeyDown(e)) return;
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
      {res.atPicker.open && <ResourcePickerPopover picker={res.atPicker} />}
      {res.browsing && (
        <ResourcePickerPopover picker={res.browser} search={{ value: res.search, onChange: res.setSearch }} />
      )}
      {res.template && (
        <TemplateAttachForm
          key={`${res.template.server}\n${res.template.template.uriTemplate}`}
          server={res.template.server}
          template={res.template.template}
          onAttach={res.attachTemplate}
          onClose={res.closeTemplate}
        />
      )}
      {(files.length > 0 || refused.length > 0 || res.resources.length > 0) && (
        <div className="attachments" data-testid="attachments">
          {res.resources.length > 0 && <ResourceChips resources={res.resources} onRemove={res.remove} />}
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
        <div className="composer-tools">
          <IconButton
            label="Attach images or text files"
            icon={<Paperclip size={16} />}
            onClick={() => picker.current?.click()}
          />
          <IconButton
            label="Attach resource"
            icon={<AtSign size={16} />}
            aria-expanded={res.browsing}
            aria-haspopup="listbox"
            onClick={res.toggleBrowser}
          />
          {props.tools}
        </div>
        <textarea
          ref={area}
          id="chat-composer"
          aria-label="Message"
          placeholder="Ask something. Type / for the servers' prompts, @ to attach a resource or skill; drop or paste images and text files."
          rows={3}
          value={text}
          {...res.areaProps}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            res.changed(e.target.value, e.target.selectionStart);
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
