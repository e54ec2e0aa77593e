// The conversations (rename, delete, search titles), newest first; the open one is marked. Hidden while
// folded away (listPanel.ts); in a narrow window it lies over the conversation, so picking one, or
// Escape, folds it again and gives the focus back to its toggle.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileUp } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { Modal } from '../../components/Modal';
import { Button } from '../../ui';
import { LIST_ID, LIST_TOGGLE_ID } from './ChatHeader';
import { useChat } from './chatStore';
import { useListPanel } from './listPanel';

/**
 * One tab stop per conversation: its title. Its other actions are keys on it (announced through
 * KEYS_HINT_ID), and its rename and delete buttons are for the pointer.
 */
const KEYS_HINT_ID = 'conversation-keys-hint';
const ROW_KEYS = { F2: 'rename', Delete: 'delete', ArrowDown: 'next', ArrowUp: 'previous' } as const;
const rowKey = (key: string) =>
  Object.hasOwn(ROW_KEYS, key) ? ROW_KEYS[key as keyof typeof ROW_KEYS] : undefined;

/** Moves the focus to the next or previous conversation's title. */
function moveInList(from: HTMLElement, to: 'next' | 'previous') {
  const row = from.closest('li');
  const sibling = to === 'next' ? row?.nextElementSibling : row?.previousElementSibling;
  sibling?.querySelector<HTMLElement>('.conv-title')?.focus();
}

export function ConversationList() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [query, setQuery] = useState('');
  // Each by its own selector: the list re-renders when the open conversation changes, not with the store
  // (an answer's text changes it every frame).
  const selected = useChat((s) => s.selected);
  const select = useChat((s) => s.select);
  const focusComposer = useChat((s) => s.focusComposer);
  const { shown, size, setShown } = useListPanel();
  const overlay = size === 'narrow';
  /** In a narrow window the list gives the room back once a conversation is picked. */
  const picked = () => overlay && setShown(false);
  const list = useQuery(
    query.trim()
      ? trpc.chat.search.queryOptions({ query: query.trim() })
      : trpc.chat.conversations.queryOptions(),
  );
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);
  const [deleting, setDeleting] = useState<{ id: string; title: string } | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: trpc.chat.conversations.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.chat.search.pathKey() });
  };
  const rename = useMutation(
    trpc.chat.rename.mutationOptions({
      onSuccess: (r) => {
        setRenaming(null);
        refresh();
        void qc.invalidateQueries({ queryKey: trpc.chat.load.queryKey({ id: r.id }) });
      },
    }),
  );
  const remove = useMutation(
    trpc.chat.delete.mutationOptions({
      onSuccess: (r) => {
        setDeleting(null);
        if (selected === r.deleted) select(null);
        refresh();
      },
    }),
  );

  return (
    <aside
      id={LIST_ID}
      className="chat-list"
      aria-label="Conversations"
      hidden={!shown}
      onKeyDown={(e) => {
        // The list's own Escape: the chat's (stop the answer) does not run for it.
        // Only from the list itself: a rename dialog's Escape (portalled, bubbling here) is the dialog's.
        if (!overlay || e.key !== 'Escape' || e.shiftKey || e.defaultPrevented) return;
        if (!e.currentTarget.contains(e.target as Node)) return;
        e.preventDefault();
        setShown(false);
        document.getElementById(LIST_TOGGLE_ID)?.focus();
      }}
    >
      <button
        type="button"
        className="primary wide-button"
        onClick={() => {
          picked();
          select(null);
          focusComposer();
        }}
      >
        New conversation
      </button>
      <ImportButton
        onImported={(cid) => {
          refresh();
          select(cid);
        }}
      />
      <input
        type="search"
        className="search"
        placeholder="Search titles"
        id="chat-search"
        aria-label="Search conversations"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <p id={KEYS_HINT_ID} className="sr-only">
        F2 renames the conversation, Delete deletes it; the up and down arrows move between conversations.
      </p>
      <ul className="plain" data-testid="conversation-list">
        {list.data?.length === 0 && (
          <li className="muted small">{query ? 'No title matches.' : 'No conversations yet.'}</li>
        )}
        {list.data?.map((c) => (
          <li key={c.id} className={`conv${c.id === selected ? ' active' : ''}`} data-testid="conversation">
            <button
              type="button"
              className="conv-title"
              aria-current={c.id === selected ? 'true' : undefined}
              aria-describedby={KEYS_HINT_ID}
              aria-keyshortcuts="F2 Delete"
              onClick={() => {
                picked();
                select(c.id);
              }}
              onKeyDown={(e) => {
                const to = rowKey(e.key);
                if (!to) return;
                e.preventDefault();
                if (to === 'rename') setRenaming({ id: c.id, title: c.title });
                else if (to === 'delete') setDeleting({ id: c.id, title: c.title });
                else moveInList(e.currentTarget, to);
              }}
              title={c.title}
            >
              {c.running && <span className="dot" aria-label="answering" />}
              {c.title}
            </button>
            <span className="conv-actions">
              <button
                type="button"
                className="icon"
                tabIndex={-1}
                aria-label={`Rename ${c.title}`}
                onClick={() => setRenaming({ id: c.id, title: c.title })}
              >
                ✎
              </button>
              <button
                type="button"
                className="icon"
                tabIndex={-1}
                aria-label={`Delete ${c.title}`}
                onClick={() => setDeleting({ id: c.id, title: c.title })}
              >
                ✕
              </button>
            </span>
          </li>
        ))}
      </ul>
      <Modal
        open={!!renaming}
        onOpenChange={(o) => !o && setRenaming(null)}
        title="Rename conversation"
        testId="rename-dialog"
      >
        {renaming && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              rename.mutate(renaming);
            }}
          >
            <label className="stack">
              Title
              <input
                autoFocus
                value={renaming.title}
                onChange={(e) => setRenaming({ ...renaming, title: e.target.value })}
              />
            </label>
            <ErrorNote error={rename.error} />
            <div className="actions">
              <span className="spacer" />
              <button type="submit" className="primary" disabled={rename.isPending}>
                Rename
              </button>
            </div>
          </form>
        )}
      </Modal>
      <Modal
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete conversation?"
        testId="delete-dialog"
      >
        {deleting && (
          <>
            <p>
              “{deleting.title}” and every message in it will be deleted from this computer. This cannot be
              undone.
            </p>
            <ErrorNote error={remove.error} />
            <div className="actions">
              <button type="button" onClick={() => setDeleting(null)}>
                Keep it
              </button>
              <span className="spacer" />
              <button
                type="button"
                className="danger"
                onClick={() => remove.mutate({ id: deleting.id })}
                disabled={remove.isPending}
              >
                Delete
              </button>
            </div>
          </>
        )}
      </Modal>
    </aside>
  );
}

/** Import of a JSON export: a new conversation with every message; a file that does not fit says why. */
function ImportButton({ onImported }: { onImported: (id: string) => void }) {
  const trpc = useTRPC();
  const input = useRef<HTMLInputElement>(null);
  const run = useMutation(trpc.chat.import.mutationOptions({ onSuccess: (c) => onImported(c.id) }));
  return (
    <>
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        hidden
        data-testid="import-input"
        onChange={async (e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) run.mutate({ content: await file.text() });
        }}
      />
      <Button size="sm" variant="ghost" icon={<FileUp size={14} />} onClick={() => input.current?.click()}>
        Import conversation
      </Button>
      <ErrorNote error={run.error} testId="import-error" />
    </>
  );
}
