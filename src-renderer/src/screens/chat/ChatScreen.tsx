// The Chat (docs/chat.md, "A turn in the chat"): conversations on the left, in a list that folds away
// (listPanel.ts); the open conversation's messages as they stream in (its snapshot plus the messages
// announced since), each turn one answer with its tool calls inline as cards; the model (provider:model)
// and, behind one button, the project folder (the MCP root) per conversation; the composer with prompts
// as slash commands. When no model is reachable, the chat says so and points to Settings > Models; on a
// fresh home, before any model was chosen, it leads to the model setup there (ModelSetup.tsx).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorOf } from '../../api/errors';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { useUi } from '../../stores/uiStore';
import { ChatAnnouncer } from './ChatAnnouncer';
import { useChat, withDeltas } from './chatStore';
import { Composer } from './Composer';
import { ConversationList } from './ConversationList';
import { ConversationMenu } from './ConversationMenu';
import { MessageList } from './MessageList';
import { NoModelBanner } from './NoModelBanner';
import { describeModel, ModelPicker, useModelChoice } from './ModelPicker';
import { ModelNeeded } from '../../components/ModelNeeded';
import { ShortcutsDialog, useChatShortcuts, type ShortcutAction } from './shortcuts';
import './chat.css';
import { attachedResources } from '@shared/chat';
import { DEFAULT_MODEL_SPEC } from '@shared/providers';
import { Keyboard, SquarePen } from 'lucide-react';
import { flushSync } from 'react-dom';
import { cx, IconButton } from '../../ui';
import { FolderAndTools, LIST_TOGGLE_ID, ListToggle } from './ChatHeader';
import { ConversationTools } from './ConversationTools';
import { useListPanel, useListPanelFollowsWindow } from './listPanel';

export function ChatScreen() {
  const selected = useChat((s) => s.selected);
  const view = useChat((s) => s.view);
  useListPanelFollowsWindow();
  const { shown, size } = useListPanel();
  return (
    <section
      className={cx('chat', shown && 'list-shown', size === 'narrow' && 'narrow')}
      aria-labelledby="chat-title"
    >
      <ConversationList />
      <Conversation key={view} id={selected} />
    </section>
  );
}

function Conversation({ id }: { id: string | null }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useUi((s) => s.navigate);
  const select = useChat((s) => s.select);
  const created = useChat((s) => s.created);
  const running = useChat((s) => (id ? s.running[id] === true : false));
  const turnError = useChat((s) => (id ? s.errors[id] : undefined));
  const setRunning = useChat((s) => s.setRunning);
  const forget = useChat((s) => s.forget);
  const focusComposer = useChat((s) => s.focusComposer);
  const covered = useChat((s) => s.covered);
  const deltas = useChat((s) => (id ? s.deltas[id] : undefined));
  // The snapshot; the messages announced since continue it (no re-reading on a timer). A reconnecting
  // stream refetches it; a missed announcement shows as a gap and refetches it once.
  const loaded = useQuery({ ...trpc.chat.load.queryOptions({ id: id ?? '' }), enabled: !!id });
  const shown = loaded.data ? withDeltas(loaded.data.messages, deltas) : undefined;
  // One read per gap: the same gap after a read (messages another process wrote) is not read again.
  const gap = shown?.gap ? `${shown.messages.length}:${deltas?.length ?? 0}` : null;
  const healed = useRef<string | null>(null);
  const refetch = loaded.refetch;
  const fetching = loaded.isFetching;
  useEffect(() => {
    if (!gap || fetching || healed.current === gap) return;
    healed.current = gap;
    void refetch();
  }, [gap, fetching, refetch]);
  const defaultModel = useQuery(trpc.models.status.queryOptions());
  const [model, setModel] = useState<string | null>(null);
  const [folder, setFolder] = useState<string | null>(null);
  const toolSets = useQuery(trpc.toolSets.list.queryOptions());
  const [toolSet, setToolSet] = useState('');
  const codeModeModels = useQuery(trpc.models.codeModeModels.queryOptions());
  /**
   * Code mode as the person last switched it here; else the conversation's; a new one as its model starts
   * (Settings > Models; docs/code-mode.md).
   */
  const [codeMode, setCodeMode] = useState<boolean | null>(null);
  const shownModel = model ?? loaded.data?.model ?? defaultModel.data?.model ?? '';
  const shownCodeMode =
    codeMode ?? (id ? loaded.data?.codeMode : codeModeModels.data?.includes(shownModel)) ?? false;
  const chosen = useModelChoice(shownModel);
  const shownFolder = folder ?? loaded.data?.summary.workspace ?? '';

  useEffect(() => {
    if (!id || !loaded.data) return;
    setRunning(id, loaded.data.running, loaded.data.turnSeq, 'answer');
    covered(id, loaded.data.messages.length);
  }, [id, loaded.data, setRunning, covered]);

  const send = useMutation(
    trpc.chat.send.mutationOptions({
      onSuccess: (r) => {
        setRunning(r.conversationId, true, r.turnSeq, 'answer');
        // The same view goes on as the conversation just created: the composer keeps its focus.
        if (!id) created(r.conversationId);
        void qc.invalidateQueries({ queryKey: trpc.chat.conversations.queryKey() });
      },
    }),
  );
  const cancel = useMutation(trpc.chat.cancel.mutationOptions());
  const saveCodeMode = useMutation(trpc.chat.setCodeMode.mutationOptions());
  const saveModel = useMutation(trpc.chat.setModel.mutationOptions());
  const saveFolder = useMutation(
    trpc.chat.setWorkspace.mutationOptions({
      onSuccess: () => id && void qc.invalidateQueries({ queryKey: trpc.chat.load.queryKey({ id }) }),
    }),
  );
  const regenerate = useMutation(
    trpc.chat.regenerate.mutationOptions({
      onSuccess: (r) => setRunning(r.conversationId, true, r.turnSeq, 'answer'),
    }),
  );
  /** Shows the conversation as it will go on (up to `messageId`) before the branch starts. */
  const branchAt = (messageId: string) => {
    if (!id || !shown) return;
    const keep = shown.messages.findIndex((m) => m.id === messageId);
    if (keep < 0) return;
    forget(id);
    qc.setQueryData(trpc.chat.load.queryKey({ id }), (old) =>
      old ? { ...old, messages: shown.messages.slice(0, keep) } : old,
    );
  };
  const lastAsked = shown?.messages.findLast((m) => m.role === 'user' && m.origin !== 'protocol');
  const idle = !!id && !running && !send.isPending && !regenerate.isPending;
  const actions = {
    idle,
    onEdit: (messageId: string, text: string) => {
      // The edited message keeps what was attached to it (read again as it is sent).
      const edited = shown?.messages.find((m) => m.id === messageId);
      const attachments = edited?.role === 'user' ? attachedResources(edited.content) : [];
      branchAt(messageId);
      send.mutate({
        text,
        ...(attachments.length ? { attachments } : {}),
        conversationId: id!,
        replaceFrom: messageId,
        ...(model ? { model } : {}),
        ...(toolSet ? { toolSet } : {}),
      });
    },
    onRegenerate: () => {
      if (!lastAsked) return;
      branchAt(lastAsked.id);
      regenerate.mutate({
        conversationId: id!,
        ...(model ? { model } : {}),
        ...(toolSet ? { toolSet } : {}),
      });
    },
  };
  const [showShortcuts, setShowShortcuts] = useState(false);
  const { shown: listShown, setShown: setListShown } = useListPanel();
  const cancelMutate = cancel.mutate;
  useChatShortcuts(
    useCallback(
      (action: ShortcutAction) => {
        switch (action) {
          case 'new':
            select(null);
            focusComposer();
            return true;
          case 'search':
            // A hidden list is shown first: the field must be on screen to take the focus.
            flushSync(() => setListShown(true));
            document.getElementById('chat-search')?.focus();
            return true;
          case 'list':
            setListShown(!listShown);
            document.getElementById(LIST_TOGGLE_ID)?.focus();
            return true;
          case 'composer':
            focusComposer();
            return true;
          case 'stop':
            if (!id || !running) return false;
            cancelMutate({ conversationId: id });
            return true;
          case 'help':
            setShowShortcuts(true);
            return true;
        }
      },
      [id, running, select, focusComposer, cancelMutate, listShown, setListShown],
    ),
  );
  const needsSetup = !id && defaultModel.data?.needsSetup === true;
  const noModel = defaultModel.data && !defaultModel.data.check.ok && !needsSetup ? defaultModel.data : null;
  const modelError = turnError && ['connect_failed', 'auth_required'].includes(turnError.code);

  return (
    <div className="chat-main">
      <header className="chat-head">
        <ListToggle />
        {!listShown && (
          <IconButton
            label="New conversation"
            icon={<SquarePen size={16} />}
            onClick={() => {
              select(null);
              focusComposer();
            }}
          />
        )}
        <div className="chat-heading">
          <h1 id="chat-title" className="chat-title">
            {id ? (loaded.data?.summary.title ?? '…') : 'New conversation'}
          </h1>
          {chosen && (
            <span className="muted small chat-model-takes" data-testid="model-takes">
              {describeModel(chosen)}
            </span>
          )}
        </div>
        <div className="chat-head-tools">
          <input
            aria-label="Model (provider:model)"
            className="model-input"
            value={shownModel}
            placeholder={DEFAULT_MODEL_SPEC}
            onChange={(e) => setModel(e.target.value)}
            onBlur={() => id && model && saveModel.mutate({ conversationId: id, model })}
          />
          <ModelPicker
            onPick={(spec) => {
              setModel(spec);
              if (id) saveModel.mutate({ conversationId: id, model: spec });
            }}
          />
          <FolderAndTools
            folder={shownFolder}
            onFolderChange={setFolder}
            onFolderDone={() =>
              id && folder !== null && saveFolder.mutate({ conversationId: id, workspace: folder || null })
            }
            toolSets={toolSets.data ?? []}
            toolSet={toolSet}
            onToolSet={setToolSet}
            codeMode={shownCodeMode}
            onCodeMode={(on) => {
              setCodeMode(on);
              if (id) saveCodeMode.mutate({ conversationId: id, on });
            }}
          />
          {id && shown && <ConversationMenu id={id} messages={shown.messages} />}
          <IconButton
            label="Keyboard shortcuts"
            icon={<Keyboard size={16} />}
            onClick={() => setShowShortcuts(true)}
          />
        </div>
      </header>
      <ErrorNote error={saveModel.error ?? saveFolder.error ?? saveCodeMode.error} />
      {(noModel && !id) || modelError ? (
        <NoModelBanner
          model={modelError ? shownModel : (noModel?.model ?? shownModel)}
          reason={
            modelError
              ? turnError?.message
              : noModel && !noModel.check.ok
                ? noModel.check.error.message
                : undefined
          }
          onOpenModels={() => navigate('models')}
        />
      ) : null}
      {id && shown ? (
        <>
          <MessageList conversationId={id} messages={shown.messages} actions={actions} />
          <ChatAnnouncer messages={shown.messages} running={running} />
        </>
      ) : id ? (
        <div className="chat-messages">{loaded.error ? <ErrorNote error={loaded.error} /> : null}</div>
      ) : needsSetup ? (
        <div className="chat-messages empty-chat">
          <ModelNeeded onSetUp={() => navigate('models')} />
        </div>
      ) : (
        <div className="chat-messages empty-chat" data-testid="chat-empty">
          <p className="muted">
            Ask a question; the model can use the tools of your servers. Every tool call shows up here as a
            card, and the ones that change things ask you first.
          </p>
        </div>
      )}
      {turnError && !modelError && (
        <div className="error-note" role="alert" data-testid="turn-error">
          <strong>{turnError.message}</strong>
          {turnError.hint && <p className="hint">{turnError.hint}</p>}
        </div>
      )}
      {send.error && <ErrorNote error={send.error} testId="send-error" />}
      <Composer
        running={running}
        sending={send.isPending}
        onCancel={() => id && cancel.mutate({ conversationId: id })}
        model={{ spec: shownModel, ...(chosen ? { vision: chosen.vision } : {}) }}
        tools={<ConversationTools model={shownModel} toolSet={toolSet} folder={shownFolder} />}
        onSend={(text, { images, files, resources }) =>
          send.mutateAsync({
            text,
            ...(images.length ? { images } : {}),
            ...(files.length ? { files } : {}),
            ...(resources.length ? { attachments: resources } : {}),
            ...(id ? { conversationId: id } : {}),
            ...(model ? { model } : {}),
            ...(toolSet ? { toolSet } : {}),
            ...(!id && folder ? { workspace: folder } : {}),
            ...(!id && codeMode !== null ? { codeMode } : {}),
          })
        }
      />
      {errorOf(cancel.error) && <ErrorNote error={cancel.error} />}
      <ErrorNote error={regenerate.error} testId="regenerate-error" />
      <ShortcutsDialog open={showShortcuts} onOpenChange={setShowShortcuts} />
    </div>
  );
}
