// Every decision path of the approval policy (README.md, Safety).
import { describe, expect, it } from 'vitest';
import type { ServerPolicy } from '@shared/config';
import type { ApprovalLookup, ToolAnnotationHints } from '@shared/approval';
import { decide, type DecideInput } from './approvalPolicy';

const RO: ToolAnnotationHints = { readOnlyHint: true };
const DESTRUCTIVE: ToolAnnotationHints = { readOnlyHint: false, destructiveHint: true };
const ADDITIVE: ToolAnnotationHints = { readOnlyHint: false, destructiveHint: false };
const ALLOWED: ApprovalLookup = {
  status: 'allowed',
  fingerprint: `sha256:${'a'.repeat(64)}`,
  decidedBy: 'user:ui',
  at: 1,
};
const LAPSED: ApprovalLookup = {
  status: 'lapsed',
  approvedFingerprint: `sha256:${'a'.repeat(64)}`,
  currentFingerprint: `sha256:${'b'.repeat(64)}`,
  diff: [{ kind: 'description', change: 'changed', before: 'a', after: 'b', summary: 'description changed' }],
};

const base: DecideInput = { policy: 'default', enabled: true, yolo: false };

type Row = [string, Partial<DecideInput>, 'auto' | 'ask' | 'refuse', RegExp];
const table: Row[] = [
  ['read-only tool runs', { annotations: RO }, 'auto', /read-only/],
  ['destructive tool asks', { annotations: DESTRUCTIVE }, 'ask', /destructive/],
  ['unannotated tool asks (spec: missing hints mean possibly destructive)', {}, 'ask', /no annotations/],
  ['empty annotations ask', { annotations: {} }, 'ask', /no annotations/],
  ['only a title is still unannotated', { annotations: { title: 'X' } }, 'ask', /no annotations/],
  ['non-read-only, non-destructive asks', { annotations: ADDITIVE }, 'ask', /not marked read-only/],
  [
    'destructiveHint:false alone is not read-only',
    { annotations: { destructiveHint: false } },
    'ask',
    /not marked read-only/,
  ],
  ['disabled tool is refused', { enabled: false, annotations: RO }, 'refuse', /disabled/],
  ['always-ask asks for a read-only tool', { policy: 'always-ask', annotations: RO }, 'ask', /always ask/],
  [
    'always-ask ignores a remembered approval',
    { policy: 'always-ask', annotations: DESTRUCTIVE, remembered: ALLOWED },
    'ask',
    /always ask/,
  ],
  [
    'auto-read-only runs a read-only tool',
    { policy: 'auto-read-only', annotations: RO },
    'auto',
    /runs read-only tools/,
  ],
  [
    'auto-read-only asks for a destructive tool',
    { policy: 'auto-read-only', annotations: DESTRUCTIVE },
    'ask',
    /destructive/,
  ],
  [
    'trust-all runs a destructive tool',
    { policy: 'trust-all', annotations: DESTRUCTIVE },
    'auto',
    /trust all/,
  ],
  ['trust-all runs an unannotated tool', { policy: 'trust-all' }, 'auto', /trust all/],
  [
    'trust-all never un-refuses a disabled tool',
    { policy: 'trust-all', enabled: false },
    'refuse',
    /disabled/,
  ],
  ['YOLO runs a destructive tool', { yolo: true, annotations: DESTRUCTIVE }, 'auto', /YOLO/],
  ['YOLO skips always-ask', { yolo: true, policy: 'always-ask' }, 'auto', /YOLO/],
  [
    'YOLO never un-refuses a disabled tool',
    { yolo: true, enabled: false, annotations: DESTRUCTIVE },
    'refuse',
    /disabled/,
  ],
  ['YOLO does not skip the lapsed ask', { yolo: true, remembered: LAPSED }, 'ask', /changed since/],
  [
    'YOLO does not skip a tool that left its pin (a rug pull after the switch went on)',
    { yolo: true, contractChanged: true, annotations: { readOnlyHint: true } },
    'ask',
    /changed since Mooring first saw it/,
  ],
  [
    'trust-all runs a changed tool (the person trusts that server with its changes)',
    { policy: 'trust-all', contractChanged: true },
    'auto',
    /trust all/,
  ],
  [
    'remembered "always allow" runs a destructive tool',
    { annotations: DESTRUCTIVE, remembered: ALLOWED },
    'auto',
    /always allow/,
  ],
  [
    'remembered works under auto-read-only',
    { policy: 'auto-read-only', remembered: ALLOWED },
    'auto',
    /always allow/,
  ],
  ['a lapsed approval asks', { annotations: DESTRUCTIVE, remembered: LAPSED }, 'ask', /changed since/],
  [
    'a lapsed approval asks even if the tool now claims read-only',
    { annotations: RO, remembered: LAPSED },
    'ask',
    /changed since/,
  ],
  [
    'no remembered entry asks',
    { annotations: DESTRUCTIVE, remembered: { status: 'none' } },
    'ask',
    /destructive/,
  ],
  [
    'contradictory hints (read-only and destructive) count as destructive',
    { annotations: { readOnlyHint: true, destructiveHint: true } },
    'ask',
    /destructive/,
  ],
  [
    'a read-only tool that left its pinned contract asks, whatever it now claims',
    { annotations: { readOnlyHint: true }, contractChanged: true },
    'ask',
    /changed since Mooring first saw it/,
  ],
  [
    'a disabled tool with a remembered approval is refused',
    { enabled: false, remembered: ALLOWED },
    'refuse',
    /disabled/,
  ],
];

describe('decide', () => {
  it.each(table)('%s', (_name, input, decision, reason) => {
    const v = decide({ ...base, ...input });
    expect(v.decision).toBe(decision);
    expect(v.reason).toMatch(reason);
  });

  it('covers every server policy', () => {
    const policies: ServerPolicy[] = ['default', 'always-ask', 'auto-read-only', 'trust-all'];
    const seen = new Set(table.map(([, i]) => i.policy ?? 'default'));
    for (const p of policies) expect(seen.has(p)).toBe(true);
  });
});
