// Node's http request and response on one side, the web `Request`/`Response` the MCP SDK's HTTP entries take
// on the other (the SDK's own adapter lives in a package Mooring does not ship). Used by httpServer.ts, and
// by the test fixtures that serve MCP over HTTP.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MooringError } from '../errors';

/** The whole body as text, refused past `maxBytes`. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new MooringError('usage', 'request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The request's method and headers as a web Request (the body, already read, is passed to the SDK apart). */
export function toWebRequest(req: IncomingMessage, url: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return new Request(url, { method: req.method, headers, signal });
}

/** Streams a web Response (JSON or SSE) to the Node response; a client that goes away cancels the stream. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(response.status, headers);
  res.flushHeaders();
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    /* the client went away */
  }
  res.end();
}
