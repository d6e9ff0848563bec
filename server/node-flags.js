// @ts-check

/**
 * The V8 settings every shop process starts with, given to `node` before server/index.js by
 * each way of starting it in production (`npm run serve`, the Dockerfile's CMD) and by the
 * bench (scripts/bench/shop.js, pg-writes.js), which measures the shop as it runs. The workers
 * of a multi-process start inherit them from the primary (node:cluster forks with its flags).
 * They cannot be set from inside the process: V8 sizes its heap before any code runs.
 *
 * `--max-semi-space-size=8`: V8 sizes its young generation from the machine's memory, up to
 * 16 MB per semi-space from about 4 GB of memory on (on a 2 GB server it picks less). On such
 * a machine a shop process holds 32 MB of young generation whatever it does, and its start
 * (modules, migrations, the scheduler's first tick, a burst of queued emails) promoted enough
 * into the old generation to leave a fresh process at 150 MB or 190 MB depending on when V8's
 * first full collection fell. With 8 MB, measured on 100,000 orders (docs/architecture.md): a
 * fresh process holds 139 to 145 MB and peaks at 152 to 160 MB during the export of every
 * order, every time; the admin pages cost 2 to 9 % more processor time (more frequent young
 * collections), the export nothing measurable.
 */
export const NODE_FLAGS = ["--max-semi-space-size=8"];
