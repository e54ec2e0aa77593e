// Skills over MCP (the `io.modelcontextprotocol/skills` extension, ext-skills specification; docs/skills.md):
// the wire shapes a server sends (validated with these schemas, every field untrusted) and the views the
// core hands the UI and the CLI. A skill's identity is the pair (server, uri) everywhere ("Skill URIs").
import { z } from 'zod';

export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** "Skill Entries": `sha256:` and 64 lowercase hex digits. */
export const SkillDigestSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 hex digits>');

export const SkillResourceSchema = z.object({
  uri: z.string().min(1),
  digest: SkillDigestSchema,
  size: z.number().int().nonnegative(),
});
export type SkillResource = z.infer<typeof SkillResourceSchema>;

/** One `Skill` entry of skills/list or skills/get; `resources` is required ("Resources"). */
export const SkillEntrySchema = z.object({
  uri: z.string().min(1),
  frontmatter: z.looseObject({ name: z.string().min(1), description: z.string() }),
  resources: z.union([z.array(SkillResourceSchema), z.literal('dynamic')]),
});
export type SkillEntry = z.infer<typeof SkillEntrySchema>;

/** One page of skills/list: entries are checked one by one, so one invalid entry does not hide the rest. */
export const ListSkillsPageSchema = z.looseObject({
  skills: z.array(z.unknown()),
  nextCursor: z.string().optional(),
  ttlMs: z.number().nonnegative().optional(),
});
export const GetSkillResultSchema = z.looseObject({
  skill: z.unknown(),
  ttlMs: z.number().nonnegative().optional(),
});

/** "Limits": what every conforming host accepts per skill. */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** One difference between the manifest a person approved and the one the server lists now. */
export interface SkillChange {
  uri: string;
  change: 'added' | 'removed' | 'changed';
  /** One line for the dialog and the terminal, e.g. `examples/email.md changed (54 → 61 bytes)`. */
  summary: string;
}

/**
 * Where a skill's approval stands: `none`; `approved` (for this manifest); `changed` (approved for another
 * manifest: revoked until approved again, `diff` says how); `dynamic` (no digests: asks every time).
 */
export type SkillApprovalState = 'none' | 'approved' | 'changed' | 'dynamic';

export interface SkillFileView {
  uri: string;
  /** Relative to the skill's root (`examples/email.md`). */
  path: string;
  size: number;
  digest: string;
}

export interface SkillView {
  server: string;
  uri: string;
  /** The frontmatter's name: a label, not an identifier ("Names"). */
  name: string;
  /** The name as shown, disambiguated when another skill (this server's or another's) has the same name. */
  label: string;
  description: string;
  /** Absent for a `"dynamic"` skill. */
  files?: SkillFileView[];
  dynamic: boolean;
  totalBytes: number;
  /** The frontmatter's `allowed-tools`: a request for a grant, never honoured without one. */
  allowedTools: string[];
  /** The skill this one is nested in (its `SKILL.md` URI), when one is listed. */
  nestedIn?: string;
  /** Why this skill cannot be loaded (over the limits, an invalid entry). */
  problem?: string;
  approval: {
    state: SkillApprovalState;
    scope?: 'always' | 'conversation';
    /** The person also granted `allowed-tools`. */
    toolsGranted?: boolean;
    at?: number;
    decidedBy?: string;
    diff?: SkillChange[];
  };
}

/** One server's skills, or why they could not be listed. */
export interface SkillServerView {
  server: string;
  skills: SkillView[];
  error?: string;
  /** Entries the server sent that were refused, and why. */
  invalid: { uri?: string; reason: string }[];
}

/** A remembered skill approval, as Permissions lists it. */
export interface SkillPermission {
  server: string;
  uri: string;
  name: string;
  files: number;
  toolsGranted: boolean;
  decidedBy: string;
  at: number;
}

/** A verified file of a skill, as read for the model or the person. */
export interface SkillFileContent {
  server: string;
  skillUri: string;
  uri: string;
  text: string;
  /** False only for a `"dynamic"` skill (nothing to verify against). */
  verified: boolean;
}

/** The person's answer to "approve this skill": how long, and whether `allowed-tools` is granted too. */
export const SkillApproveInputSchema = z
  .object({
    server: z.string().min(1),
    uri: z.string().min(1),
    scope: z.enum(['always', 'conversation']).default('always'),
    conversationId: z.string().optional(),
    grantTools: z.boolean().default(false),
  })
  .strict();
export type SkillApproveInput = z.input<typeof SkillApproveInputSchema>;
