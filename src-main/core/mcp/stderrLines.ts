// A server's stderr as lines, in bounded memory however much it writes (docs/sessions.md, "Session actor
// states": stderr ring buffer). Each line keeps at most `maxLineBytes` (the rest of a longer line is counted
// and dropped as it arrives, never concatenated), and what is kept is copied out of the pipe's chunk, so a
// kept line never pins a 64 KB chunk in memory the way a sliced string would.
export const MAX_STDERR_LINE_BYTES = 4000;

export class StderrLines {
  private parts: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(
    private readonly onLine: (text: string) => void,
    private readonly maxLineBytes = MAX_STDERR_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    for (let start = 0; ;) {
      const nl = chunk.indexOf(0x0a, start);
      this.take(chunk, start, nl === -1 ? chunk.length : nl);
      if (nl === -1) return;
      this.flush();
      start = nl + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    this.flush();
  }

  private take(chunk: Buffer, start: number, end: number): void {
    const keep = Math.max(0, Math.min(this.maxLineBytes - this.kept, end - start));
    if (keep > 0) {
      this.parts.push(Buffer.from(chunk.subarray(start, start + keep)));
      this.kept += keep;
    }
    this.dropped += end - start - keep;
  }

  private flush(): void {
    if (!this.kept && !this.dropped) return;
    let text = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    if (this.dropped) text += ` … (${this.dropped} more bytes of this line dropped)`;
    this.parts = [];
    this.kept = 0;
    this.dropped = 0;
    if (text.trim()) this.onLine(text);
  }
}
