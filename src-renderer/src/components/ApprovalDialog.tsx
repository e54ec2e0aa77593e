// The approval dialog: for the oldest pending request, the server, tool and its annotations, the arguments
// in an editable JSON editor checked against the tool's schema, the diff when the tool changed since it was
// allowed, and the four answers, each saying how long it lasts: Allow once, Allow for this conversation
// (only for a call from a conversation), Always allow, Deny; for a skill's load that asks for
// `allowed-tools`, the grant as a separate tick (docs/skills.md).
// Focus: each request opens on Deny (a person typing their next message who presses Enter as the dialog
// appears refuses the call rather than allowing it); Escape denies; after the last answer, focus goes
// back where it was before the dialog opened (or to the message box when that element is gone).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { hintsReadOnly, type ApprovalOutcome, type ApprovalRequest } from '@shared/approval';
import { useTRPC } from '../api/trpc';
import { appOfClient } from '@shared/appViews';
import { checkArgs } from '@shared/toolArguments';
import { escapeUntrusted as shown, jsonForTerminal } from '@shared/untrustedText';
import { AnnotationBadges } from './AnnotationBadges';
import { ErrorNote } from './ErrorNote';

/** Who asks, in words: a conversation by its title, else the client as the core named it. */
function useAsker(request: ApprovalRequest): string | undefined {
  const trpc = useTRPC();
  const conversations = useQuery({
    ...trpc.chat.conversations.queryOptions(),
    enabled: request.conversationId !== undefined,
  });
  const app = appOfClient(request.client);
  const byApp = app ? `the ${app.server} app (its ${app.tool} view)` : undefined;
  if (request.conversationId === undefined) return byApp ?? request.client;
  const title = conversations.data?.find((c) => c.id === request.conversationId)?.title;
  const conversation = title ? `the conversation “${title}”` : 'a conversation';
  return byApp ? `${byApp} in ${conversation}` : conversation;
}

/** Who hears of a denial: an app's view, the model of a conversation, or whoever else called. */
function deniedTo(request: ApprovalRequest): string {
  if (appOfClient(request.client)) return 'the app’s view gets an error saying you refused';
  if (request.conversationId !== undefined) return 'the model is told you said no';
  return 'the caller is told you said no';
}

function ApprovalBody({
  request,
  denyButton,
}: {
  request: ApprovalRequest;
  denyButton: RefObject<HTMLButtonElement | null>;
}) {
  useEffect(() => denyButton.current?.focus(), [denyButton]);
  const trpc = useTRPC();
  const qc = useQueryClient();
  const asker = useAsker(request);
  const tools = useQuery(trpc.tools.list.queryOptions({ server: request.server }));
  const schema = tools.data?.find((t) => t.tool === request.tool)?.inputSchema;
  // Bidi, zero-width and control characters in the arguments show as `\u202e` escapes: still the same JSON
  // (it parses back to the same value), but a person reads what the server will get (shared/untrustedText.ts).
  const original = jsonForTerminal(request.arguments, 2);
  const [text, setText] = useState(original);
  // A skill's allowed-tools: a tick of its own, off at every question (docs/skills.md).
  const [grantSkillTools, setGrantSkillTools] = useState(false);
  const check = checkArgs(text, schema);
  const answer = useMutation(
    trpc.approvals.answer.mutationOptions({
      onSettled: () => void qc.invalidateQueries({ queryKey: trpc.approvals.pending.queryKey() }),
    }),
  );
  const a = request.annotations;
  const flags = {
    readOnly: hintsReadOnly(a),
    destructive: !hintsReadOnly(a) && a.destructiveHint !== false,
    idempotent: a.idempotentHint === true,
    openWorld: a.openWorldHint !== false,
  };
  const send = (outcome: ApprovalOutcome, allowFlow = false) => {
    if (outcome === 'deny') return answer.mutate({ id: request.id, outcome });
    if (!check.ok) return;
    const edited = text !== original;
    answer.mutate({
      id: request.id,
      outcome,
      ...(edited ? { arguments: check.value } : {}),
      ...(allowFlow ? { allowFlow: true } : {}),
      ...(request.skillTools && grantSkillTools ? { grantSkillTools: true } : {}),
    });
  };
  return (
    <>
      <Dialog.Title className="modal-title">Allow “{shown(request.friendlyName)}”?</Dialog.Title>
      <Dialog.Description className="muted">
        <strong>{shown(request.server)}</strong> / <code>{shown(request.tool)}</code>
        {asker ? ` · asked by ${shown(asker)}` : ''}. Why you are asked: {shown(request.reason)}.
      </Dialog.Description>
      <p>
        <AnnotationBadges flags={flags} />
      </p>
      {request.diff && request.diff.length > 0 && (
        <div className="banner warn" data-testid="approval-diff">
          <strong>
            {request.diff.some((d) => d.kind === 'file')
              ? 'This skill changed since you approved it:'
              : request.diffSince === 'pinned'
                ? 'This tool changed since Mooring first saw it (allowing this call accepts the change):'
                : 'This tool changed since you allowed it:'}
          </strong>
          <ul>
            {request.diff.map((d, i) => (
              <li key={i}>
                {shown(d.summary)}
                {(d.before || d.after) && (
                  <div className="diff">
                    {d.before && <pre className="del">- {shown(d.before, { multiline: true })}</pre>}
                    {d.after && <pre className="add">+ {shown(d.after, { multiline: true })}</pre>}
                  </div>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {request.flow && <FlowBanner flow={request.flow} />}
      {request.program && <ProgramOfCall program={request.program} tool={request.tool} />}
      {request.skillTools && (
        <SkillToolsGrant grant={request.skillTools} checked={grantSkillTools} onChange={setGrantSkillTools} />
      )}
      <label className="stack">
        Arguments (you may edit them before approving)
        <textarea
          aria-label="Approval arguments"
          className="code"
          rows={8}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
        />
      </label>
      {!check.ok && (
        <p className="danger-text" role="alert" data-testid="approval-args-error">
          {check.error}
        </p>
      )}
      <ErrorNote error={answer.error} />
      <div className="approval-choices" role="group" aria-label="Your answer">
        <button
          type="button"
          className="choice primary"
          onClick={() => send('approve')}
          disabled={!check.ok || answer.isPending}
          aria-describedby={`${request.id}-once`}
        >
          Allow once
        </button>
        <span className="choice-hint" id={`${request.id}-once`}>
          This call only.
        </span>
        {request.conversationId && (
          <>
            <button
              type="button"
              className="choice"
              onClick={() => send('conversation')}
              disabled={!check.ok || answer.isPending}
              aria-describedby={`${request.id}-conv`}
            >
              Allow for this conversation
            </button>
            <span className="choice-hint" id={`${request.id}-conv`}>
              Every call of this tool in this conversation, until Mooring restarts.
            </span>
          </>
        )}
        {request.flow && (
          <>
            <button
              type="button"
              className="choice"
              data-testid="approval-allow-flow"
              onClick={() => send('approve', true)}
              disabled={!check.ok || answer.isPending}
              aria-describedby={`${request.id}-flow`}
            >
              Allow, and let {shown(request.flow.from.join(', '))} → {shown(request.flow.to)} flow
            </button>
            <span className="choice-hint" id={`${request.id}-flow`}>
              This call, and from now on data read from {shown(request.flow.from.join(', '))} may go to{' '}
              {shown(request.flow.to)} without this question (revoke it in Permissions).
            </span>
          </>
        )}
        <button
          type="button"
          className="choice"
          onClick={() => send('always')}
          disabled={!check.ok || answer.isPending}
          aria-describedby={`${request.id}-always`}
        >
          Always allow
        </button>
        <span className="choice-hint" id={`${request.id}-always`}>
          Every call, everywhere, until the tool changes or you revoke it in Permissions.
        </span>
        <button
          ref={denyButton}
          type="button"
          className="choice danger"
          data-testid="approval-deny"
          onClick={() => send('deny')}
          disabled={answer.isPending}
          aria-describedby={`${request.id}-deny`}
        >
          Deny
        </button>
        <span className="choice-hint" id={`${request.id}-deny`}>
          Refuse this call; {deniedTo(request)}.
        </span>
      </div>
    </>
  );
}

export function ApprovalDialog() {
  const trpc = useTRPC();
  const pending = useQuery(trpc.approvals.pending.queryOptions());
  const request = pending.data?.[0];
  const denyButton = useRef<HTMLButtonElement>(null);
  const content = useRef<HTMLDivElement>(null);
  // The last element focused outside the dialog: where focus returns after the answer.
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onFocus = (e: FocusEvent) => {
      const el = e.target as HTMLElement | null;
      if (el && !content.current?.contains(el)) returnTo.current = el;
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, []);
  const restoreFocus = (e: Event) => {
    e.preventDefault();
    const back = returnTo.current;
    const usable = back?.isConnected && !(back as HTMLButtonElement).disabled;
    (usable ? back : (document.getElementById('chat-composer') ?? document.querySelector('main')))?.focus();
  };
  return (
    <Dialog.Root open={!!request}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content
          ref={content}
          className="modal wide"
          data-testid="approval-dialog"
          aria-describedby={undefined}
          // The body focuses Deny itself (also when the next request replaces this one).
          onOpenAutoFocus={(e) => e.preventDefault()}
          onCloseAutoFocus={restoreFocus}
          // Escape is an answer (Deny), never a dismissal that leaves the call waiting; a stray click is nothing.
          onEscapeKeyDown={(e) => {
            e.preventDefault();
            denyButton.current?.click();
          }}
          onPointerDownOutside={(e) => e.preventDefault()}
        >
          {request && <ApprovalBody key={request.id} request={request} denyButton={denyButton} />}
          {pending.data && pending.data.length > 1 && (
            <p className="muted small">{pending.data.length - 1} more waiting</p>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The flow this call makes between servers (docs/trust.md), named before anything else is decided. */
function FlowBanner({ flow }: { flow: NonNullable<ApprovalRequest['flow']> }) {
  return (
    <div className="banner warn" data-testid="approval-flow" role="note">
      <strong>
        Data would leave {shown(flow.from.join(', '))} for {shown(flow.to)}.
      </strong>
      <p>{shown(flow.text)}</p>
      {flow.strong && (
        <p>
          It comes from content marked untrusted or read from the open world, and the tool reaches the open
          world: “Always allow” and YOLO do not skip this question.
        </p>
      )}
    </div>
  );
}

/**
 * The code-mode program making this call (docs/code-mode.md): its text, with the lines that call this tool
 * marked, so the person sees what the call is part of. The program is the model's: shown escaped.
 */
function ProgramOfCall({ program, tool }: { program: { code: string; call: number }; tool: string }) {
  const key = tool.replace(/[^A-Za-z0-9_$]/g, '_');
  const pre = useRef<HTMLPreElement>(null);
  // The marked line in view inside its box (the program may be longer than the box).
  useEffect(() => {
    const box = pre.current;
    const line = box?.querySelector<HTMLElement>('.program-line-call');
    if (box && line) box.scrollTop = Math.max(0, line.offsetTop - box.clientHeight / 3);
  }, [program.code]);
  const calls = new RegExp(`(^|[^A-Za-z0-9_$])(\\w*__)?${key.replace(/\$/g, '\\$')}\\s*\\(`);
  return (
    <details className="approval-program" data-testid="approval-program" open>
      <summary>Call {program.call} of a program the model wrote</summary>
      <pre className="code" ref={pre}>
        {program.code.split('\n').map((line, i) => (
          <span key={i} className={calls.test(line) ? 'program-line-call' : undefined}>
            {shown(line)}
            {'\n'}
          </span>
        ))}
      </pre>
    </details>
  );
}

/**
 * The grant a skill's `allowed-tools` asks for (docs/skills.md): a tick of its own, never implied by an
 * answer. Ticked, those tools of that server run without asking while the skill is loaded in this
 * conversation; the gate's other rules (a flow between servers, a changed tool) still ask.
 */
function SkillToolsGrant({
  grant,
  checked,
  onChange,
}: {
  grant: NonNullable<ApprovalRequest['skillTools']>;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <div className="banner" data-testid="approval-skill-tools" role="group" aria-label="allowed-tools">
      <label className="inline">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
        <span>
          Also grant its allowed-tools: let{' '}
          {grant.tools.map((t, i) => (
            <span key={t}>
              {i > 0 && ', '}
              <code>{shown(t)}</code>
            </span>
          ))}{' '}
          of <strong>{shown(grant.server)}</strong> run without asking while this skill is loaded in this
          conversation.
        </span>
      </label>
      <p className="muted small">
        Off unless you tick it: without it, those tools ask as usual. Never tools of another server; a flow
        between servers or a changed tool still asks.
      </p>
    </div>
  );
}
