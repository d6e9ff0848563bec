// @ts-check

/**
 * Remix's Node adapter writes the chunks of a streamed answer as soon as it reads them, and
 * ignores `res.write` returning false: a long stream sent to a slow client piles up in the
 * process's memory. A loader that streams much (the CSV export of the orders) takes
 * `untilWritable` from its load context and awaits it before producing its next chunk: it
 * resolves at once while the client keeps up, and once the answer's buffer has drained (or the
 * client has gone) when it does not. It watches `res.write` from its first call only.
 *
 * @param {import("node:http").ServerResponse} res
 * @returns {() => Promise<void>}
 */
export function writableWaiter(res) {
  let watching = false;
  let full = false;
  /** @type {(() => void)[]} the waits under way, resolved at the next drain or at the close */
  let waiting = [];
  const writable = () => {
    full = false;
    const woken = waiting;
    waiting = [];
    for (const resolve of woken) resolve();
  };
  return () => {
    if (!watching) {
      watching = true;
      // After the compression middleware's own: its false means its zlib stream is full.
      const write = res.write;
      res.write = /** @type {typeof res.write} */ (
        function (/** @type {any[]} */ ...args) {
          const ok = write.apply(res, /** @type {any} */ (args));
          if (!ok) full = true;
          return ok;
        }
      );
      // One listener of each for the whole answer, not one per wait: a long answer to a slow
      // client waits hundreds of times, and the listeners added at each wait stayed until its end.
      // `on` goes through the compression middleware's: the drain of its stream when it compresses.
      res.on("drain", writable);
      res.on("close", writable);
    }
    if (!full || res.destroyed || res.writableEnded) return Promise.resolve();
    return new Promise((resolve) => waiting.push(() => resolve(undefined)));
  };
}
