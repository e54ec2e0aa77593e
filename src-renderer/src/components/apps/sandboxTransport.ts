// The bridge's transport to one MCP App view (extension io.modelcontextprotocol/ui): postMessage to and
// from the sandbox page's window only, on the sandbox origin only (the double iframe: that page holds the
// view, see docs/mcp-apps.md "MCP Apps"). Every incoming message passes the guard first; a refused request
// is answered here with its JSON-RPC error, and the bridge never sees it.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ViewMessageGuard } from './viewMessageGuard';

export class SandboxTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private started = false;

  constructor(
    private readonly frame: Window,
    private readonly origin: string,
    private readonly guard: ViewMessageGuard,
    private readonly onRefused?: (reason: string) => void,
  ) {}

  private readonly listener = (e: MessageEvent) => {
    if (e.source !== this.frame || e.origin !== this.origin) return;
    const verdict = this.guard.check(e.data);
    if (!verdict.ok) {
      if (verdict.reply) this.frame.postMessage(verdict.reply, this.origin);
      this.onRefused?.(verdict.reason);
      return;
    }
    this.onmessage?.(verdict.message);
  };

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    window.addEventListener('message', this.listener);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.frame.postMessage(message, this.origin);
  }

  async close(): Promise<void> {
    window.removeEventListener('message', this.listener);
    this.onclose?.();
  }
}
