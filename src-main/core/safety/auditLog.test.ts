import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../home';
import { AuditEntrySchema, AuditLog } from './auditLog';
import { redactText } from './redact';
import { canonicalJson } from './toolFingerprint';
import { RUN_TS } from '../../../test/helpers/servers';

const CHILD = fileURLToPath(new URL('../../../test/fixtures/auditKeyChild.ts', import.meta.url));

/** A separate Mooring process writing one audit line for {"id":6} in `home`; resolves with its hash. */
function childHash(home: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUN_TS, CHILD, home], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
}

const base = {
  server: 's',
  tool: 't',
  decision: 'approve' as const,
  decidedBy: 'u',
  fingerprint: 'f',
  reason: 'r',
};

const SECRET = 'ghp_S3cr3tT0kenValue0123456789';

describe('AuditLog', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'mooring-audit-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('appends one parseable JSON line per decision, without raw argument values', async () => {
    const log = new AuditLog(home, (text) => redactText(text, [SECRET]));
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
    expect(entries[0]!.args?.hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(entries[0]!.args?.sha256).toBeUndefined();
    expect(new Date(entries[0]!.at).getTime()).not.toBeNaN();
    // No raw values anywhere in the file, not even in free text.
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('Secret Lane');
    expect(entries[2]!.reason).toBe('token [redacted] leaked');
    expect(await log.read()).toEqual(entries);
  });

  it('the same arguments hash the same, different ones differently', async () => {
    const log = new AuditLog(home);
    const a = await log.record({ ...base, arguments: { a: 1, b: 2 } });
    const b = await log.record({ ...base, arguments: { b: 2, a: 1 } });
    const c = await log.record({ ...base, arguments: { a: 1, b: 3 } });
    expect(a.args?.hmac).toBe(b.args?.hmac);
    expect(c.args?.hmac).not.toBe(a.args?.hmac);
  });

  it('keys the hash: {"id":6} is not its plain SHA-256, and the key is 0600 beside the log', async () => {
    const log = new AuditLog(home);
    const entry = await log.record({ ...base, arguments: { id: 6 } });
    const plain = createHash('sha256')
      .update(canonicalJson({ id: 6 }))
      .digest('hex');
    expect(entry.args?.hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(entry.args?.hmac).not.toBe(plain);
    expect(await readFile(log.file, 'utf8')).not.toContain(plain);
    expect(log.keyFile).toBe(join(homePaths(home).logs, 'audit.key'));
    if (process.platform !== 'win32') expect(statSync(log.keyFile).mode & 0o777).toBe(0o600);
    // Another log object on the same home (a second store in one process) uses the same key…
    const again = await new AuditLog(home).record({ ...base, arguments: { id: 6 } });
    expect(again.args?.hmac).toBe(entry.args?.hmac);
    // …and another home has its own key, so the same arguments do not match across homes.
    const other = await mkdtemp(join(tmpdir(), 'mooring-audit-'));
    try {
      const elsewhere = await new AuditLog(other).record({ ...base, arguments: { id: 6 } });
      expect(elsewhere.args?.hmac).not.toBe(entry.args?.hmac);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('processes started together on one home make one key and hash alike', { timeout: 120_000 }, async () => {
    const hashes = await Promise.all([1, 2, 3, 4, 5].map(() => childHash(home)));
    expect(new Set(hashes).size).toBe(1);
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    const lines = (await new AuditLog(home).read()).map((e) => e.args?.hmac);
    expect(lines).toEqual(hashes);
  });

  it('refuses a damaged key with a hint instead of replacing it', async () => {
    const log = new AuditLog(home);
    await log.record({ ...base, arguments: { id: 1 } });
    writeFileSync(log.keyFile, 'not a key\n');
    await expect(new AuditLog(home).record({ ...base, arguments: { id: 1 } })).rejects.toMatchObject({
      code: 'config_invalid',
      hint: expect.stringMatching(/Delete the file/),
    });
    expect(await readFile(log.keyFile, 'utf8')).toBe('not a key\n');
  });

  it('still reads lines written before the key (plain sha256)', async () => {
    const log = new AuditLog(home);
    const old = { ...base, at: new Date(0).toISOString(), args: { keys: ['id'], sha256: 'a'.repeat(64) } };
    await log.record({ ...base });
    await appendFile(log.file, `${JSON.stringify(old)}\n`);
    expect((await log.read()).map((e) => e.args?.sha256)).toEqual([undefined, 'a'.repeat(64)]);
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
