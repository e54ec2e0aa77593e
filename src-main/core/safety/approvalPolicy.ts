// The approval policy: one pure decision per tool call — run it, ask the user, or refuse.
// MCP spec, "Tool annotations": annotations are hints from a possibly untrusted server, and a tool without
// them is assumed possibly destructive and not read-only. So only an explicit readOnlyHint:true runs unasked.
import type { ServerPolicy } from '@shared/config';
import {
  hintsReadOnly,
  type ApprovalLookup,
  type PolicyVerdict,
  type ToolAnnotationHints,
} from '@shared/approval';

export interface DecideInput {
  /** The server's policy from its config (`ServerConfig.policy`). */
  policy: ServerPolicy;
  annotations?: ToolAnnotationHints | undefined;
  /** False when the tool filters (include/exclude, new-tool quarantine) or the catalog disable the tool. */
  enabled: boolean;
  /** Why it is disabled, when the catalog knows (a filter, a tool set, a schema no model accepts). */
  disabledReason?: string | undefined;
  /** The global YOLO switch: skips every ask, never un-refuses a disabled tool. */
  yolo: boolean;
  /** The approval store's answer for this server + tool (absent means none). */
  remembered?: ApprovalLookup | undefined;
  /** The tool is listed differently from its pin (safety/toolPins.ts) and nobody accepted the change yet. */
  contractChanged?: boolean | undefined;
}

const verdict = (decision: PolicyVerdict['decision'], reason: string): PolicyVerdict => ({
  decision,
  reason,
});

function whyAsk(a: ToolAnnotationHints | undefined): string {
  if (!a || (a.readOnlyHint === undefined && a.destructiveHint === undefined))
    return 'the tool has no annotations, so it may change or delete things';
  if (a.destructiveHint === false) return 'the tool may change things (it is not marked read-only)';
  return 'the tool may be destructive';
}

/**
 * Order matters, strongest first:
 * 1. a disabled tool is refused — nothing (not YOLO, not trust-all) turns that into a call;
 * 2. `trust-all` and YOLO run without asking;
 * 3. a lapsed approval asks, whatever the annotations now claim, so the user sees the diff;
 * 4. a tool that left its pinned contract asks, whatever the annotations now claim, with the diff;
 * 5. `always-ask` asks, ignoring read-only hints and remembered approvals;
 * 6. read-only hints run (`default` and `auto-read-only` agree here) — not when the tool also says it
 *    is destructive (`hintsReadOnly`);
 * 7. a remembered "always allow" whose fingerprint still matches runs;
 * 8. everything else asks.
 */
export function decide(input: DecideInput): PolicyVerdict {
  const { policy, annotations, enabled, yolo, remembered } = input;
  if (!enabled)
    return verdict('refuse', input.disabledReason ?? 'the tool is disabled by this server’s tool filters');
  if (policy === 'trust-all') return verdict('auto', 'the server’s policy is "trust all"');
  if (yolo) return verdict('auto', 'YOLO mode is on: every enabled tool runs without asking');
  if (remembered?.status === 'lapsed')
    return verdict('ask', 'the tool changed since you chose "always allow"; review what changed');
  if (input.contractChanged)
    return verdict('ask', 'the tool changed since Mooring first saw it; review what changed');
  if (policy === 'always-ask') return verdict('ask', 'the server’s policy is "always ask"');
  if (hintsReadOnly(annotations))
    return verdict(
      'auto',
      policy === 'auto-read-only'
        ? 'the tool is marked read-only and the server’s policy runs read-only tools automatically'
        : 'the tool is marked read-only',
    );
  if (remembered?.status === 'allowed') return verdict('auto', 'you chose "always allow" for this tool');
  return verdict('ask', whyAsk(annotations));
}
