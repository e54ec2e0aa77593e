import { mkdtemp, readFile, rm, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../home';
import { AuditEntrySchema, AuditLog } from './auditLog';

const SECRET = 'ghp_S3cr3tT0kenValue0123456789';

describe('AuditLog', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'mooring-audit-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('appends one parseable JSON line per decision, without raw argument values', async () => {
    const log = new AuditLog(home, () => [SECRET]);
    const fp = `sha256:${'d'.repeat(64)}`;
    await Promise.all([
      log.record({
        server: 'github',
        tool: 'create_issue',
        decision: 'approve',
        decidedBy: 'user:ui',
        fingerprint: fp,
        client: 'conversation:42',
        reason: 'the tool may be destructive',
        arguments: { token: SECRET, body: 'my home address is 1 Secret Lane' },
        argsEdited: true,
      }),
      log.record({
        server: 'github',
        tool: 'list_issues',
        decision: 'auto',
        decidedBy: 'policy',
        fingerprint: fp,
        reason: 'read-only',
      }),
      log.record({
        server: 'github',
        tool: 'delete_repo',
        decision: 'refuse',
        decidedBy: 'policy',
        fingerprint: fp,
        reason: `token ${SECRET} leaked`,
      }),
    ]);
    expect(log.file).toBe(homePaths(home).audit);
    const text = await readFile(log.file, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const entries = lines.map((l) => AuditEntrySchema.parse(JSON.parse(l)));
    expect(entries.map((e) => e.decision)).toEqual(['approve', 'auto', 'refuse']);
    expect(entries[0]).toMatchObject({
      server: 'github',
      tool: 'create_issue',
      decidedBy: 'user:ui',
      fingerprint: fp,
      client: 'conversation:42',
      argsEdited: true,
    });
    expect(entries[0]!.args?.keys).toEqual(['body', 'token']);
    expect(entries[0]!.args?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(new Date(entries[0]!.at).getTime()).not.toBeNaN();
    // No raw values anywhere in the file, not even in free text.
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('Secret Lane');
    expect(entries[2]!.reason).toBe('token [redacted] leaked');
    expect(await log.read()).toEqual(entries);
  });

  it('the same arguments hash the same, different ones differently', async () => {
    const log = new AuditLog(home);
    const base = {
      server: 's',
      tool: 't',
      decision: 'approve' as const,
      decidedBy: 'u',
      fingerprint: 'f',
      reason: 'r',
    };
    const a = await log.record({ ...base, arguments: { a: 1, b: 2 } });
    const b = await log.record({ ...base, arguments: { b: 2, a: 1 } });
    const c = await log.record({ ...base, arguments: { a: 1, b: 3 } });
    expect(a.args?.sha256).toBe(b.args?.sha256);
    expect(c.args?.sha256).not.toBe(a.args?.sha256);
  });

  it('skips a torn last line instead of failing the whole log', async () => {
    const log = new AuditLog(home);
    await log.record({
      server: 's',
      tool: 't',
      decision: 'deny',
      decidedBy: 'user:ui',
      fingerprint: 'f',
      reason: 'r',
    });
    await appendFile(log.file, '{"at":"2025-');
    expect(await log.read()).toHaveLength(1);
  });
});
