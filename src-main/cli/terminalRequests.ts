// Requests parked in the core for a person (tool approvals; sampling and forms in terminalInteractions.ts),
// asked on the terminal through the one queued prompt. A request that ends while it waits (timed out,
// cancelled, answered elsewhere) closes its question and is reported; an answer that arrives after the
// end is reported and dropped; nothing here throws into an event listener.
import type { ApprovalRequest, ToolChange } from '@shared/approval';
import type { ErrorData } from '@shared/errors';
import type { MooringCore } from '../core/mooringCore';
import { MooringError } from '../core/errors';
import { eachParked } from '../core/safety/pendingRequests';
import { jsonForTerminal } from '@shared/untrustedText';
import { multiline, say, tty } from './terminalText';
import { terminal, type Asker, type DialogResult } from './terminalPrompt';

/** The part of a broker (ApprovalBroker, InteractionBroker) the terminal needs. */
export interface ParkedRequests<R extends { id: string }> {
  on(event: 'resolved', listener: (r: { request: R; error?: ErrorData }) => void): unknown;
  off(event: 'resolved', listener: (r: { request: R; error?: ErrorData }) => void): unknown;
  pending(): R[];
  answer(id: string, answer: unknown): void;
}

export interface AskAboutOptions<R extends { id: string }> {
  broker: ParkedRequests<R>;
  request: R;
  /** How the request is named in the "ended" line, e.g. `the approval for "Write file"`. */
  label: string;
  dialog: (ask: Asker) => Promise<DialogResult<unknown>>;
  /** The answer when the person presses Ctrl-C or ends input: always a refusal. */
  interrupted: unknown;
}

/** Asks about one parked request when the terminal is free, and answers it unless it ended first. */
export async function askAbout<R extends { id: string }>(o: AskAboutOptions<R>): Promise<void> {
  const ended = new AbortController();
  let why: string | undefined;
  const onResolved = (r: { request: R; error?: ErrorData }) => {
    if (r.request.id !== o.request.id) return;
    why = r.error?.message ?? 'it was answered elsewhere';
    ended.abort();
  };
  o.broker.on('resolved', onResolved);
  try {
    if (!o.broker.pending().some((p) => p.id === o.request.id)) ended.abort();
    const r = await terminal.dialog(o.dialog, { signal: ended.signal });
    if (!r.ok && r.why === 'ended') {
      say(tty`(${o.label} is no longer waiting${why ? `: ${why}` : ''}; nothing was answered)\n`);
      return;
    }
    o.broker.off('resolved', onResolved);
    try {
      o.broker.answer(o.request.id, r.ok ? r.value : o.interrupted);
    } catch (err) {
      if (err instanceof MooringError && err.code === 'not_found')
        say(tty`(${o.label} ended before your answer arrived; your answer was not used)\n`);
      else say(tty`(could not answer ${o.label}: ${(err as Error).message})\n`);
    }
  } finally {
    o.broker.off('resolved', onResolved);
  }
}

/** One change of a tool for the terminal: its summary, then the old and new value, escaped and cut. */
function diffLines(d: ToolChange): string {
  const cut = (t: string) => (t.length > 600 ? `${t.slice(0, 600)}…` : t);
  return (
    tty`    ${d.summary}\n` +
    (d.before !== undefined ? tty`      - ${cut(d.before)}\n` : '') +
    (d.after !== undefined ? tty`      + ${cut(d.after)}\n` : '')
  );
}

/** The approval question: who wants which tool, why it asks, the arguments, what changed since "always". */
function approvalDialog(req: ApprovalRequest): (ask: Asker) => Promise<DialogResult<unknown>> {
  return async (ask) => {
    // Named when it is another program (a client of `mooring serve`), not this command or its chat.
    const other = req.client && req.client !== 'cli' && !req.client.startsWith('conversation:');
    const who = other ? tty` for ${req.client}` : '';
    ask.say(
      tty`\n${req.friendlyName} (${req.server}/${req.tool}) wants to run${who}: ${req.reason}.\n` +
        tty`arguments: ${multiline(jsonForTerminal(req.arguments, 2))}\n`,
    );
    const since = req.diffSince === 'pinned' ? 'Mooring first saw it' : 'you allowed it';
    if (req.diff?.length) ask.say(`  this tool changed since ${since}:\n`);
    for (const d of req.diff ?? []) ask.say(diffLines(d));
    // A flow between servers (docs/trust.md): named, with the way to allow the pair for good.
    if (req.flow)
      ask.say(
        tty`  data flow: ${req.flow.from.join(', ')} → ${req.flow.to}${req.flow.strong ? ' (untrusted or open-world content: YOLO and always-allow do not skip it)' : ''}; to allow it from now on: mooring mcp flows allow ${req.flow.from[0] ?? ''} ${req.flow.to}\n`,
      );
    // A code-mode program's call (docs/code-mode.md): the program, each line escaped.
    if (req.program) {
      ask.say(tty`  call ${String(req.program.call)} of a program the model wrote:\n`);
      for (const line of req.program.code.split('\n')) ask.say(tty`  │ ${line}\n`);
    }
    const a = await ask.confirm('Run it?');
    if (!a.ok) return a;
    return { ok: true, value: { outcome: a.yes ? 'approve' : 'deny', decidedBy: 'user:cli' } };
  };
}

/**
 * Answers the core's tool approvals on this terminal, one at a time, until the returned function is
 * called. Ctrl-C or end of input denies the call being asked about.
 */
export function answerApprovalsOnTerminal(core: Pick<MooringCore, 'approvals'>): () => void {
  const onRequest = (req: ApprovalRequest) =>
    void askAbout({
      broker: core.approvals,
      request: req,
      label: tty`the approval for ${req.friendlyName} (${req.server}/${req.tool})`,
      dialog: approvalDialog(req),
      interrupted: { outcome: 'deny', decidedBy: 'user:cli' },
    });
  const release = terminal.hold();
  // A request parked before this was called (a quick client) is asked about too, never left to time out.
  const stop = eachParked(core.approvals, onRequest);
  return () => {
    stop();
    release();
  };
}
