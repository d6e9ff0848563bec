import { gunzipSync, gzipSync } from "node:zlib";

/**
 * A long text kept gzipped (an email's HTML and text parts: about 5× smaller). SQLite keeps the
 * bytes in its TEXT column (a BLOB value), PostgreSQL in a bytea column. A value written before
 * it was compressed is read as it is: plain text in SQLite, its UTF-8 bytes in PostgreSQL (the
 * migration's conversion); gzip's first two bytes (1f 8b) never start a text.
 */
export function compressText(value: string): Buffer {
  return gzipSync(Buffer.from(value, "utf8"));
}

export function decompressText(value: unknown): string {
  if (typeof value === "string") return value;
  const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
}
