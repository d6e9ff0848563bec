/**
 * Request bodies are read with a size limit, before any parsing: a client that sends
 * megabytes gets a 413 after the first `maxBytes`, and the rest is never read.
 */

/** Thrown when a body passes its limit; callers turn it into their own 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Request body over ${maxBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** The body as text, at most `maxBytes` bytes (the declared Content-Length is checked first). */
export async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
