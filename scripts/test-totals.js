// Adds up the unit (vitest JSON) and e2e (Playwright JSON) results into one line:
// "N passed, N failed", alone on the last line (the skipped ones, if any, on the line before).
// Failed tests are named above the totals, each with the first lines of its error, so the end
// of a run's output says what failed without scrolling back through it.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

const firstLines = (text, n = 6) =>
  String(text ?? "")
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((l) => l.trim())
    .slice(0, n)
    .map((l) => `    ${l.slice(0, 200)}`)
    .join("\n");

const unit = "reports/unit.json";
if (existsSync(unit)) {
  const r = JSON.parse(readFileSync(unit, "utf8"));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  for (const file of r.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failedTests) {
      failures.push(
        `${file.name.replace(process.cwd() + "/", "")} › ${t.fullName}\n${firstLines(t.failureMessages?.join("\n"))}`,
      );
    }
    if (failedTests.length === 0 && file.status === "failed") {
      failures.push(`${file.name.replace(process.cwd() + "/", "")}\n${firstLines(file.message)}`);
    }
  }
}

function* playwrightTests(suite) {
  for (const spec of suite.specs ?? []) for (const test of spec.tests ?? []) yield { spec, test, file: suite.file };
  for (const child of suite.suites ?? []) yield* playwrightTests(child);
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
  for (const suite of r.suites ?? []) {
    for (const { spec, test, file } of playwrightTests(suite)) {
      if (test.status !== "unexpected") continue;
      const error = test.results?.map((res) => res.error?.message).find(Boolean);
      failures.push(`${e2e} [${test.projectName}] ${file}:${spec.line} › ${spec.title}\n${firstLines(error)}`);
    }
  }
  for (const error of r.errors ?? []) failures.push(`${e2e}\n${firstLines(error.message)}`);
}

if (failures.length) console.log(`Failed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
if (skipped)
  console.log(`${skipped} skipped (tests that do not apply to a project, such as JavaScript-only steps without JavaScript)`);
console.log(`${passed} passed, ${failed} failed`);
