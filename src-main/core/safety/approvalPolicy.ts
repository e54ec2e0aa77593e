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
  /**
   * Who wants the call: the model (a conversation, an MCP client's agent), or a person who asked for this
   * call themselves (the Playground, `mooring mcp call`, an MCP App view's control). Default: the model.
   */
  caller?: CallerKind;
  /** The global YOLO switch: skips every ask but a changed tool's, never un-refuses a disabled tool. */
  yolo: boolean;
  /** The approval store's answer for this server + tool (absent means none). */
  remembered?: ApprovalLookup | undefined;
  /** The tool is listed differently from its pin (safety/toolPins.ts) and nobody accepted the change yet. */
  contractChanged?: boolean | undefined;
}

/** "Off" hides a tool from models; a person's own call of it is asked about instead (below). */
export type CallerKind = 'model' | 'person';

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
 * 1. a disabled tool is refused to a model — nothing (not YOLO, not trust-all) turns that into a call; a
 *    person calling it themselves is asked, every time (off hides a tool from models, not from people);
 * 2. `trust-all` runs without asking: the person trusts that server with everything, its changes too;
 * 3. a lapsed approval asks, whatever the annotations now claim, so the user sees the diff;
 * 4. a tool that left its pinned contract asks, whatever the annotations now claim, with the diff; YOLO
 *    does not skip 3 and 4: it is one switch for every server, and a server that changes a tool after the
 *    switch went on (an annotation rug pull) is exactly what the person did not decide about;
 * 5. YOLO runs without asking;
 * 6. `always-ask` asks, ignoring read-only hints and remembered approvals;
 * 7. read-only hints run (`default` and `auto-read-only` agree here) — not when the tool also says it
 *    is destructive (`hintsReadOnly`);
 * 8. a remembered "always allow" whose fingerprint still matches runs;
 * 9. everything else asks.
 */
export function decide(input: DecideInput): PolicyVerdict {
  const { policy, annotations, enabled, yolo, remembered } = input;
  if (!enabled) {
    const why = input.disabledReason ?? 'the tool is disabled by this server’s tool filters';
    if (input.caller === 'person') {
      // The filter's own words name a config key a person may never have seen.
      const plain = why === 'listed in excludeTools' ? 'switched off in Tools' : why;
      return verdict(
        'ask',
        `the tool is off for models (${plain}); this call comes from you (the Playground, a terminal, or a button in an app's view), so you decide`,
      );
    }
    return verdict('refuse', why);
  }
  if (policy === 'trust-all') return verdict('auto', 'the server’s policy is "trust all"');
  if (remembered?.status === 'lapsed')
    return verdict('ask', 'the tool changed since you chose "always allow"; review what changed');
  if (input.contractChanged)
    return verdict('ask', 'the tool changed since Mooring first saw it; review what changed');
  if (yolo) return verdict('auto', 'YOLO mode is on: every enabled tool runs without asking');
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
