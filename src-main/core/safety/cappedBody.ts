// A response body read with a size cap (untrusted servers, registries and icon hosts): the declared
// Content-Length is checked first, then the bytes as they arrive, and the stream is cancelled the moment it
// passes the cap, so an oversized answer costs at most `max` bytes of memory.

/** The body's bytes, or undefined when it is larger than `max` bytes (the rest is not read). */
export async function readCappedBytes(res: Response, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await res.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
