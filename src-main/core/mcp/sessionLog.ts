// What one session writes to its log (the Logs view, `mooring mcp logs`): lines from the host about the
// server (state changes, safety notes), the server's stderr and its own log messages, and — only while the
// Logs view's switch is on — its JSON-RPC traffic (trafficTrace.ts). Every line is masked by the redactor
// before it is kept or heard (ARCHITECTURE.md, "The core as one object": text leaves a session only
// through it).
import type { Transport } from '@modelcontextprotocol/client';
import type { LogLine } from '@shared/session';
import { RingBuffer } from './ringBuffer';
import { tracedTransport, traceText } from './trafficTrace';

export interface SessionLogOptions {
  server: string;
  redact?: ((text: string) => string) | undefined;
  /** Every line, once kept (the actor emits it as its `log` event). */
  onLine: (line: LogLine) => void;
}

export class SessionLog {
  readonly lines = new RingBuffer<LogLine>(1000);
  /**
   * The last stderr lines written since the session became ready (redacted). Kept by order of arrival,
   * not by timestamp: a start-up banner written in the same millisecond as the handshake's end is not
   * part of a later break's reason.
   */
  private stderrSinceReady: string[] = [];
  /** Record every JSON-RPC message to and from the server (the Logs view's switch). */
  private tracing = false;

  constructor(private readonly opts: SessionLogOptions) {}

  /** A line from the host about this server (state changes, safety notes). */
  host(level: LogLine['level'], text: string): void {
    this.add({ source: 'host', level, text });
  }

  add(l: Omit<LogLine, 'server' | 'at'>): void {
    const text = this.opts.redact ? this.opts.redact(l.text) : l.text;
    const line: LogLine = { server: this.opts.server, at: Date.now(), ...l, text };
    this.lines.push(line);
    if (line.source === 'stderr') {
      this.stderrSinceReady.push(line.text);
      if (this.stderrSinceReady.length > 3) this.stderrSinceReady.shift();
    }
    this.opts.onLine(line);
  }

  /** Starts or stops recording the traffic; false when it was already so. */
  setTracing(on: boolean): boolean {
    if (on === this.tracing) return false;
    this.tracing = on;
    this.host('info', on ? 'recording JSON-RPC traffic' : 'stopped recording JSON-RPC traffic');
    return true;
  }

  get isTracing(): boolean {
    return this.tracing;
  }

  /** `transport`, recording its JSON-RPC traffic in the log while the switch is on. */
  traced(transport: Transport): Transport {
    return tracedTransport(transport, (direction, message) => {
      if (this.tracing)
        this.add({ source: 'rpc', level: 'debug', text: `${direction} ${traceText(message)}` });
    });
  }

  /** The session became ready: stderr from before is no break's reason. */
  markReady(): void {
    this.stderrSinceReady = [];
  }

  /** What the server wrote on stderr since the session became ready (at most the last three lines). */
  recentStderr(): readonly string[] {
    return this.stderrSinceReady;
  }

  /** The last stderr lines. */
  stderrTail(lines = 20): string {
    return this.lines
      .toArray()
      .filter((l) => l.source === 'stderr')
      .slice(-lines)
      .map((l) => l.text)
      .join('\n');
  }
}
