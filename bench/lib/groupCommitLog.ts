// A what-if for the tool-call breakdown (issue 9): the audit log's write path as the fix proposed
// for src-main/core/safety/auditLog.ts would make it: the directory created once, one append handle
// kept open, and lines that arrive while a write is in flight joined into the next single write
// (group commit). Each caller still waits until its own line is written. Bench-only prototype; the
// real log keeps its schema check and redaction, which cost microseconds, not the I/O measured here.
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

export class GroupCommitLog {
  private handle?: Promise<FileHandle>;
  private pending: { line: string; done: () => void; fail: (e: unknown) => void }[] = [];
  private writing = false;

  constructor(private readonly file: string) {}

  append(line: string): Promise<void> {
    return new Promise((done, fail) => {
      this.pending.push({ line, done, fail });
      if (!this.writing) void this.flush();
    });
  }

  async close(): Promise<void> {
    await (await this.handle)?.close();
  }

  private async flush(): Promise<void> {
    this.writing = true;
    this.handle ??= mkdir(dirname(this.file), { recursive: true }).then(() => open(this.file, 'a', 0o600));
    while (this.pending.length) {
      const batch = this.pending;
      this.pending = [];
      try {
        await (await this.handle).write(batch.map((p) => p.line).join(''));
        batch.forEach((p) => p.done());
      } catch (err) {
        batch.forEach((p) => p.fail(err));
      }
    }
    this.writing = false;
  }
}
