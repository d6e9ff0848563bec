// @ts-check
// npm run bench:data: the back office and the API lists with two years of data, alone
// (scripts/bench/part-data.js says what it measures; `npm run bench` runs it too). Writes
// reports/bench-data.json.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { benchData } from "./part-data.js";
import { ROOT } from "./shop.js";

const sizes = (process.env.BENCH_DATA_SIZES || "1000,10000,100000").split(",").map(Number);
try {
  const { lines, report } = await benchData({ sizes, keepDir: process.env.BENCH_DATA_DIR });
  console.log(lines.join("\n"));
  mkdirSync(path.join(ROOT, "reports"), { recursive: true });
  writeFileSync(path.join(ROOT, "reports/bench-data.json"), JSON.stringify(report, null, 2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
