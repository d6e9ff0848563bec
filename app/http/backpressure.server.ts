/**
 * The load context's wait for a slow client (server/backpressure.js): a streamed answer awaits
 * it before producing its next chunk. Absent when the shop runs without that server (tests call
 * loaders directly): nothing to wait for then.
 */
export function untilWritableOf(context: unknown): (() => Promise<void>) | undefined {
  const wait = (context as { untilWritable?: unknown } | null | undefined)?.untilWritable;
  return typeof wait === "function" ? (wait as () => Promise<void>) : undefined;
}
