// Adds up the unit (vitest JSON) and e2e (Playwright JSON) results into one line:
// "N passed, N failed", alone on the last line (the skipped ones, if any, on the line before).
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;

const unit = "reports/unit.json";
if (existsSync(unit)) {
  const r = JSON.parse(readFileSync(unit, "utf8"));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}

// The e2e suite's runs: on SQLite, and on PostgreSQL (E2E_DATABASE=postgresql, playwright.config.ts).
for (const e2e of ["reports/e2e.json", "reports/e2e-postgresql.json"]) {
  if (!existsSync(e2e)) continue;
  const r = JSON.parse(readFileSync(e2e, "utf8"));
  const s = r.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  if ((r.errors ?? []).length > 0 && !s.expected && !s.unexpected) failed += r.errors.length;
}

if (skipped) console.log(`${skipped} skipped (tests that do not apply to a project, such as JavaScript-only steps without JavaScript)`);
console.log(`${passed} passed, ${failed} failed`);
