import { decode, encode } from "turbo-stream";

/**
 * Single fetch's wire format (turbo-stream), as the browser's Remix reads it: what a page's
 * `.data` request returns, decoded; and a value encoded back, to stand in for such an answer.
 */
export async function decodeSingleFetch(body: ReadableStream<Uint8Array> | null): Promise<unknown> {
  if (!body) throw new Error("no body to decode");
  const decoded = await decode(body);
  await decoded.done;
  return decoded.value;
}

export async function encodeSingleFetch(value: unknown): Promise<string> {
  return new Response(encode(value)).text();
}
