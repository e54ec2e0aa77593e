// The safety verdict follows its inputs (ARCHITECTURE.md, "The path of one tool call"): a model-based
// property test over a real core and a real server (test/fixtures/servers/mutableTool.ts, run twice: the
// global server and a project folder's server of the same name). fast-check changes one input of the
// verdict at a time, in random order — the YOLO switch, the server's policy, its tool filter, the new-tool
// quarantine (written by "another process"), the tool's definition (and so its fingerprint), a remembered
// "always allow" (given through the dialog or by another process, revoked on the Permissions screen), a
// conversation grant, the folder's session (approved, revoked), the tool's pinned contract (accepted in the
// dialog or by another process, forgotten by another process) — and after each change checks that
// - the call path's one revision moved (`core.tools.revision()`: the catalogs and resolved names are kept
//   for one revision only, calls/callRevision.ts), and
// - the very next call, globally and in the folder, decides what the policy (safety/approvalPolicy.ts
//   `decide`) says for the inputs as they are now.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalLookup } from '@shared/approval';
import type { ServerPolicy } from '@shared/config';
import { MooringCore } from '../../src-main/core/mooringCore';
import { decide } from '../../src-main/core/safety/approvalPolicy';
import { ApprovalStore } from '../../src-main/core/safety/approvalStore';
import { ToolPins, toolPinsPath } from '../../src-main/core/safety/toolPins';
import { serverIdentity } from '../../src-main/core/safety/toolFingerprint';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { RUN_TS, fixturePath, tempDir } from '../helpers/servers';

type Loc = 'global' | 'folder';
type Variant = 0 | 1 | 2;
type Outcome = 'auto' | 'grant' | 'ask' | 'refuse';

/** The annotations of each variant of `act` (as mutableTool.ts declares them). */
const ANNOTATIONS = [
  { readOnlyHint: true },
  { readOnlyHint: false, destructiveHint: false },
  { destructiveHint: true },
] as const;
const POLICIES: ServerPolicy[] = ['default', 'always-ask', 'trust-all', 'auto-read-only'];
const CONVERSATION = 'verdict-conversation';
const ACT = 'mcp__mut__act';

/** What the test believes the inputs are; the oracle decides from this alone. */
interface Model {
  yolo: boolean;
  policy: ServerPolicy;
  excluded: boolean;
  quarantined: boolean;
  /** The folder's server is approved and its session runs. */
  folder: boolean;
  variant: Record<Loc, Variant>;
  /** One approval per server name and tool: for the server at `loc` as it was at `variant`. */
  always: { loc: Loc; variant: Variant } | null;
  grant: { loc: Loc; variant: Variant } | null;
  /** Each server's pinned variant of `act` (safety/toolPins.ts); null until a call first sees it. */
  pin: Record<Loc, Variant | null>;
}

interface Real {
  core: MooringCore;
  home: string;
  folder: string;
  /** The folder's canonical path, as calls in it name it. */
  workspace: string;
  /** A second approvals store on the same home: another Mooring process. */
  elsewhere: ApprovalStore;
  /** A second pins store on the same home: another Mooring process. */
  pinsElsewhere: ToolPins;
}

/** Where a call in `loc` goes: the folder's own session only while it runs. */
const at = (m: Model, loc: Loc): Loc => (loc === 'folder' && m.folder ? 'folder' : 'global');

/** The oracle: the policy's decision for the inputs the model holds. */
function expected(m: Model, loc: Loc): Outcome {
  const where = at(m, loc);
  const variant = m.variant[where];
  const remembered: ApprovalLookup = !m.always
    ? { status: 'none' }
    : m.always.loc === where && m.always.variant === variant
      ? { status: 'allowed', fingerprint: 'f', decidedBy: 'test', at: 0 }
      : { status: 'lapsed', approvedFingerprint: 'a', currentFingerprint: 'b', diff: [] };
  const excluded = where === 'global' && m.excluded;
  const verdict = decide({
    // The folder's file sets no policy (an approval without it never carries one) and no filter.
    policy: where === 'global' ? m.policy : 'default',
    annotations: ANNOTATIONS[variant],
    enabled: !excluded && !m.quarantined,
    yolo: m.yolo,
    remembered,
    contractChanged: m.pin[where] !== null && m.pin[where] !== variant,
  });
  if (verdict.decision !== 'ask') return verdict.decision;
  return m.grant?.loc === where && m.grant.variant === variant ? 'grant' : 'ask';
}

const where = (r: Real, loc: Loc) => (loc === 'folder' ? { workspace: r.workspace } : {});

/** One call of `act` nobody can answer, in the conversation: what the gate decided. */
async function outcome(r: Real, loc: Loc): Promise<Outcome> {
  try {
    const out = await r.core.tools.call(
      ACT,
      {},
      { client: 'verdict-test', conversationId: CONVERSATION, interactive: false, ...where(r, loc) },
    );
    return out.decision === 'auto' ? 'auto' : 'grant';
  } catch (err) {
    return /needs your approval/.test((err as Error).message) ? 'ask' : 'refuse';
  }
}

/** A call in `loc` saw `act`: a tool seen for the first time is pinned as it is. */
function seen(m: Model, loc: Loc): void {
  const where = at(m, loc);
  m.pin[where] ??= m.variant[where];
}

async function checkBoth(m: Model, r: Real): Promise<void> {
  for (const loc of ['global', 'folder'] as const) {
    expect({ loc, outcome: await outcome(r, loc) }).toEqual({ loc, outcome: expected(m, loc) });
    seen(m, loc);
  }
}

/** Resolves once the tools service has seen `act` as `variant` in `loc`, on its `changed` event. */
function variantSeen(r: Real, loc: Loc, variant: Variant): Promise<void> {
  const seen = () =>
    r.core.tools.catalog(where(r, loc)).get(ACT)?.description.includes(`variant ${variant}`) === true;
  return new Promise((resolve) => {
    if (seen()) return resolve();
    const on = () => {
      if (!seen()) return;
      r.core.tools.off('changed', on);
      resolve();
    };
    r.core.tools.on('changed', on);
  });
}

/** A command changes one input, checks that the revision moved when the input did, then checks both calls. */
abstract class Change implements fc.AsyncCommand<Model, Real> {
  check(_m: Readonly<Model>): boolean {
    return true;
  }
  /** Changes the input; returns whether the model changed. */
  abstract apply(m: Model, r: Real): Promise<boolean>;
  abstract toString(): string;
  async run(m: Model, r: Real): Promise<void> {
    const before = r.core.tools.revision();
    if (await this.apply(m, r))
      expect(r.core.tools.revision(), `${this} moves the revision`).toBeGreaterThan(before);
    await checkBoth(m, r);
  }
}

class SetYolo extends Change {
  constructor(readonly on: boolean) {
    super();
  }
  async apply(m: Model, r: Real) {
    await r.core.settings.update((s) => ({ ...s, yolo: this.on }));
    const changed = m.yolo !== this.on;
    m.yolo = this.on;
    return changed;
  }
  toString = () => `yolo ${this.on}`;
}

class SetPolicy extends Change {
  constructor(readonly policy: ServerPolicy) {
    super();
  }
  async apply(m: Model, r: Real) {
    await r.core.servers.setPolicy('mut', this.policy);
    const changed = m.policy !== this.policy;
    m.policy = this.policy;
    return changed;
  }
  toString = () => `policy ${this.policy}`;
}

/** The tool toggle: turning the tool on also ends its quarantine (services/configuredServers.ts). */
class SetEnabled extends Change {
  constructor(readonly on: boolean) {
    super();
  }
  async apply(m: Model, r: Real) {
    await r.core.servers.setToolEnabled('mut', 'act', this.on);
    const changed = m.excluded === this.on || (this.on && m.quarantined);
    m.excluded = !this.on;
    if (this.on) m.quarantined = false;
    return changed;
  }
  toString = () => `tool ${this.on ? 'on' : 'off'}`;
}

/** Another process holds `act` back as new, or lets it go (known_tools.json, written atomically). */
class QuarantineElsewhere extends Change {
  constructor(readonly held: boolean) {
    super();
  }
  async apply(m: Model, r: Real) {
    const file = join(r.home, 'known_tools.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      servers: Record<string, { known: string[]; quarantined: string[] }>;
    };
    doc.servers.mut = { known: ['act', 'morph'], ...doc.servers.mut, quarantined: this.held ? ['act'] : [] };
    writeFileSync(`${file}.tmp`, JSON.stringify(doc));
    renameSync(`${file}.tmp`, file);
    const changed = m.quarantined !== this.held;
    m.quarantined = this.held;
    return changed;
  }
  toString = () => `quarantine ${this.held ? 'held' : 'released'} elsewhere`;
}

/** The server changes `act` (notifications/tools/list_changed): a new definition, a new fingerprint. */
class Morph extends Change {
  constructor(
    readonly loc: Loc,
    readonly variant: Variant,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const target = at(m, this.loc);
    if (m.variant[target] === this.variant) return false;
    const seen = variantSeen(r, this.loc, this.variant);
    await r.core.tools.call(
      'mcp__mut__morph',
      { variant: this.variant },
      { client: 'verdict-test', preApproved: true, ...where(r, this.loc) },
    );
    await seen;
    m.variant[target] = this.variant;
    return true;
  }
  toString = () => `morph ${this.loc} to ${this.variant}`;
}

/** A call that asks, answered in the dialog: "always allow", "allow for this conversation" or deny. */
class Answer extends Change {
  constructor(
    readonly loc: Loc,
    readonly answer: 'always' | 'conversation' | 'deny',
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const asks = expected(m, this.loc) === 'ask';
    let asked = false;
    const answer = (req: { id: string }) => {
      asked = true;
      r.core.approvals.answer(req.id, { outcome: this.answer, decidedBy: 'user:verdict-test' });
    };
    r.core.approvals.once('requested', answer);
    await r.core.tools
      .call(ACT, {}, { client: 'verdict-test', conversationId: CONVERSATION, ...where(r, this.loc) })
      .catch(() => undefined);
    r.core.approvals.off('requested', answer);
    expect(asked, `${this} asked`).toBe(asks);
    seen(m, this.loc);
    if (!asks || this.answer === 'deny') return false;
    const now = { loc: at(m, this.loc), variant: m.variant[at(m, this.loc)] };
    // A person allowed the call after seeing what changed: the tool as it is now is its contract.
    m.pin[now.loc] = now.variant;
    if (this.answer === 'always') m.always = now;
    else m.grant = now;
    return true;
  }
  toString = () => `answer ${this.answer} in ${this.loc}`;
}

/** Another Mooring process remembers "always allow" for the global `act` as it is now. */
class RememberElsewhere extends Change {
  async apply(m: Model, r: Real) {
    const def = r.core.tools.catalog().get(ACT)!.handle.definition;
    await r.elsewhere.remember({
      identity: serverIdentity(await r.core.servers.get('mut')),
      tool: {
        name: def.name,
        description: def.description,
        inputSchema: def.inputSchema,
        annotations: def.annotations,
      },
      decidedBy: 'user:elsewhere',
    });
    m.always = { loc: 'global', variant: m.variant.global };
    return true;
  }
  toString = () => 'always allow elsewhere';
}

/** Another Mooring process accepts the global `act` as it is now (the Tools screen's "Accept change"). */
class AcceptElsewhere extends Change {
  async apply(m: Model, r: Real) {
    const def = r.core.tools.catalog().get(ACT)!.handle.definition;
    await r.pinsElsewhere.accept(serverIdentity(await r.core.servers.get('mut')), def);
    const changed = m.pin.global !== m.variant.global;
    m.pin.global = m.variant.global;
    return changed;
  }
  toString = () => 'accept change elsewhere';
}

/** Another process forgets every pin (the file emptied): the next sight pins each tool as it is then. */
class ForgetPinsElsewhere extends Change {
  async apply(m: Model, r: Real) {
    const file = toolPinsPath(r.home);
    writeFileSync(`${file}.tmp`, JSON.stringify({ pins: {} }));
    renameSync(`${file}.tmp`, file);
    const changed = m.pin.global !== null || m.pin.folder !== null;
    m.pin = { global: null, folder: null };
    return changed;
  }
  toString = () => 'pins forgotten elsewhere';
}

class RevokeAlways extends Change {
  async apply(m: Model, r: Real) {
    await r.core.permissions.revoke({ kind: 'tool', server: 'mut', tool: 'act' });
    const changed = m.always !== null;
    m.always = null;
    return changed;
  }
  toString = () => 'revoke always';
}

class RevokeGrant extends Change {
  async apply(m: Model, r: Real) {
    await r.core.permissions.revoke({ kind: 'conversation', conversationId: CONVERSATION });
    const changed = m.grant !== null;
    m.grant = null;
    return changed;
  }
  toString = () => 'revoke conversation grant';
}

/** The folder's server approved (its session starts) or its approval revoked (its session ends). */
class SetFolder extends Change {
  constructor(readonly on: boolean) {
    super();
  }
  async apply(m: Model, r: Real) {
    if (m.folder === this.on) return false;
    if (this.on) await r.core.workspaces.approve(r.folder, 'mut');
    else {
      for (const a of (await r.core.workspaces.approvals()).filter((x) => x.name === 'mut'))
        await r.core.permissions.revoke({
          kind: 'workspace',
          workspace: a.workspace,
          source: a.source,
          name: 'mut',
        });
    }
    await r.core.workspaces.ensure(r.folder);
    m.folder = this.on;
    // A folder server starts as the fixture does: as variant 0.
    if (this.on) m.variant.folder = 0;
    return true;
  }
  toString = () => `folder server ${this.on ? 'approved' : 'revoked'}`;
}

const loc = fc.constantFrom<Loc>('global', 'folder');
const variant = fc.constantFrom<Variant>(0, 1, 2);
const answer = fc
  .tuple(loc, fc.constantFrom('always' as const, 'conversation' as const, 'deny' as const))
  .map(([l, a]) => new Answer(l, a));
const morph = fc.tuple(loc, variant).map(([l, v]) => new Morph(l, v));
// The dialog's answers and the tool's changes are listed twice: most inputs only matter to a call that asks.
const commands = [
  fc.boolean().map((b) => new SetYolo(b)),
  fc.constantFrom(...POLICIES).map((p) => new SetPolicy(p)),
  fc.boolean().map((b) => new SetEnabled(b)),
  fc.boolean().map((b) => new QuarantineElsewhere(b)),
  morph,
  morph,
  answer,
  answer,
  fc.constant(new RememberElsewhere()),
  fc.constant(new RevokeAlways()),
  fc.constant(new RevokeGrant()),
  fc.constant(new AcceptElsewhere()),
  fc.constant(new ForgetPinsElsewhere()),
  fc.boolean().map((b) => new SetFolder(b)),
];

const fixture = (...extra: string[]) => ({
  name: 'mut',
  command: 'node',
  args: [RUN_TS, fixturePath('mutableTool.ts'), ...extra],
});

describe('the safety verdict follows each of its inputs at the very next call', () => {
  let real: Real;

  beforeAll(async () => {
    const home = tempDir('mooring-verdict-');
    const folder = tempDir('mooring-verdict-folder-');
    writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: [fixture()] }));
    // The folder's server of the same name: another process, another identity (one more argument).
    writeFileSync(join(folder, '.mcp.json'), JSON.stringify({ mcpServers: { mut: fixture('--in-folder') } }));
    const core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    await core.start();
    real = {
      core,
      home,
      folder,
      workspace: await core.workspaces.ensure(folder),
      elsewhere: await ApprovalStore.open(home),
      pinsElsewhere: await ToolPins.open(home),
    };
  }, 60_000);
  afterAll(() => real?.core.close());

  /** Every run starts from the same inputs, set through the same doors the commands use. */
  async function reset(): Promise<Model> {
    const m: Model = {
      yolo: true,
      policy: 'trust-all',
      excluded: true,
      quarantined: true,
      folder: true,
      variant: { global: 0, folder: 0 },
      always: { loc: 'global', variant: 0 },
      grant: { loc: 'global', variant: 0 },
      pin: { global: 0, folder: 0 },
    };
    for (const c of [
      new SetFolder(false),
      new SetYolo(false),
      new SetPolicy('default'),
      new SetEnabled(true),
      new QuarantineElsewhere(false),
      new Morph('global', 1),
      new RevokeAlways(),
      new RevokeGrant(),
      new ForgetPinsElsewhere(),
    ])
      await c.apply(m, real);
    // Where every run starts: a call of `act` asks (it is not read-only), so each answer and each change counts.
    m.folder = false;
    m.variant = { global: 1, folder: 0 };
    return m;
  }

  /** From where every run starts (a call asks), each input changed in turn, then changed back. */
  const eachInTurn = (): Change[] => [
    new Answer('global', 'conversation'),
    new RevokeGrant(),
    new Answer('global', 'always'),
    new RevokeAlways(),
    new RememberElsewhere(),
    new Morph('global', 2),
    new AcceptElsewhere(),
    new Morph('global', 0),
    new Answer('global', 'always'),
    new ForgetPinsElsewhere(),
    new Morph('global', 2),
    new SetYolo(true),
    new SetYolo(false),
    new SetPolicy('trust-all'),
    new SetPolicy('default'),
    new SetEnabled(false),
    new SetEnabled(true),
    new QuarantineElsewhere(true),
    new QuarantineElsewhere(false),
    new SetFolder(true),
    new Morph('folder', 1),
    new Answer('folder', 'conversation'),
    new SetFolder(false),
  ];

  it('changes one input at a time: each in turn, then in random order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { size: 'max', maxCommands: 24 }), async (cmds) => {
        const model = await reset();
        await checkBoth(model, real);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 6, examples: [[eachInTurn()]] },
    );
  }, 300_000);
});
