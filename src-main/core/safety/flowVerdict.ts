// A verdict with the data flow of its call taken in (docs/trust.md, "Conversations remember what they
// read"): the gate's last word on a call that carries what the conversation read to another server.
import { describeFlow, type DataFlow } from '@shared/dataFlow';
import type { PolicyVerdict } from '@shared/approval';

/**
 * The verdict with the flow taken in (docs/trust.md): a strong flow asks whatever skipped asking (trust-all,
 * YOLO, "always allow"); any other flow asks where the tool would have run only for being read-only; a
 * verdict that asks anyway names the flow.
 */
export function withFlow(verdict: PolicyVerdict, flow: DataFlow, chosenToSkip: boolean): PolicyVerdict {
  if (verdict.decision === 'refuse') return verdict;
  // A reason is a clause: the dialog and the terminal end it with their own period.
  const text = describeFlow(flow).replace(/\.$/, '');
  if (verdict.decision === 'ask') return { decision: 'ask', reason: `${text}. ${capital(verdict.reason)}` };
  if (flow.strong)
    return {
      decision: 'ask',
      reason: `${text}. It comes from untrusted or open-world content and goes to an open-world tool`,
    };
  return chosenToSkip ? verdict : { decision: 'ask', reason: text };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
