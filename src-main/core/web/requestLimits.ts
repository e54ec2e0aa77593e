// What browser mode accepts as a request body (ARCHITECTURE.md, "The core, by room": web/). The router is
// the only thing that takes a body, and only for mutations (POST; queries and the event stream are GET).
// A body is checked by its headers before a byte of it is read:
//   - it must be JSON (`Content-Type: application/json`; the renderer's tRPC client always sends that), so a
//     form post (multipart/form-data, text/plain — what a cross-site form can send) never reaches a
//     mutation → 415;
//   - it must say its length (`Content-Length`; a chunked body could not be refused before reading) → 411;
//   - the length must fit MAX_BODY_BYTES → 413.
// A refused request is answered at once and its connection closed, so the rest of the body is never read.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * 8 MiB. The largest legitimate request is an import (`servers.previewImport` / `servers.import`): its text
 * is capped at 2,000,000 characters by the router, which is at most 6 MB as JSON (3 bytes a character in
 * UTF-8; quotes and backslashes escape to 2) plus the field names. An edited approval's arguments or a
 * chat message (200,000 characters) are far smaller.
 */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export type BodyVerdict =
  { ok: true } | { ok: false; status: 411 | 413 | 415; message: string; hint: string };

function isJson(contentType: string | undefined): boolean {
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mime === 'application/json';
}

/** Whether a request to the router may be read: methods without a body pass. */
export function checkRequestBody(req: IncomingMessage, max = MAX_BODY_BYTES): BodyVerdict {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return { ok: true };
  if (!isJson(req.headers['content-type']))
    return {
      ok: false,
      status: 415,
      message: `Mooring accepts only application/json here, not ${JSON.stringify(req.headers['content-type'] ?? 'no content type')}.`,
      hint: 'Send the mutation as JSON with "Content-Type: application/json", as the Mooring UI does.',
    };
  const length = req.headers['content-length'];
  if (length === undefined || req.headers['transfer-encoding'] !== undefined || !/^\d+$/.test(length))
    return {
      ok: false,
      status: 411,
      message: 'Mooring needs the body length up front (Content-Length), not a chunked body.',
      hint: 'Send the whole JSON body with a Content-Length header.',
    };
  if (Number(length) > max)
    return {
      ok: false,
      status: 413,
      message: `The request body is ${length} bytes; Mooring accepts at most ${max} bytes (${Math.round(max / 1024 / 1024)} MiB).`,
      hint: 'Nothing Mooring does needs more: import a smaller file, or split it.',
    };
  return { ok: true };
}

/**
 * Answers a refused body in the router's error shape (`error.data.mooring`, api/trpc.ts), then closes the
 * connection: Node would otherwise read and discard the rest of the body to reuse the connection.
 */
export function refuseBody(req: IncomingMessage, res: ServerResponse, v: Exclude<BodyVerdict, { ok: true }>) {
  const body = JSON.stringify({
    error: {
      message: v.message,
      code: -32600,
      data: {
        code:
          v.status === 413
            ? 'PAYLOAD_TOO_LARGE'
            : v.status === 415
              ? 'UNSUPPORTED_MEDIA_TYPE'
              : 'BAD_REQUEST',
        httpStatus: v.status,
        mooring: { code: 'usage', message: v.message, hint: v.hint },
      },
    },
  });
  res.writeHead(v.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body, () => req.socket.destroy());
}
