// @ts-check
// Run first by `npm test` (the `pretest` script): the programs the tests need outside npm.
// - Chromium, for the end-to-end tests (playwright.config.ts): Debian's headless shell
//   (/usr/bin/chromium-headless-shell) or browser (/usr/bin/chromium), or CHROMIUM_PATH.
// - PostgreSQL's programs (initdb, pg_ctl, postgres), for the throwaway servers of the tests
//   (scripts/postgres/throwaway.js): PG_BIN, /usr/lib/postgresql/<version>/bin or the PATH.
// When one is missing: as root with apt-get, installs Debian's packages (apt-get's output in a
// log file, one line saying what is installed); otherwise stops with one line saying what to
// install, and exit code 1. Nothing is printed when all is there.
//
// Options, for this script's own tests (tests/unit/test-prerequisites.test.ts):
//   --system-root <dir>  look for Debian's programs under <dir> instead of /
//   --as-root, --not-root  decide as root, or as a user without root rights, whoever runs it
import { spawnSync } from "node:child_process";
import { accessSync, closeSync, constants, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const args = process.argv.slice(2);
const rootIndex = args.indexOf("--system-root");
const systemRoot = (rootIndex >= 0 && args[rootIndex + 1]) || "/";
const asRoot = args.includes("--as-root") || (!args.includes("--not-root") && process.getuid?.() === 0);

/** @param {string} file */
function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** @param {string} file a path from / */
const system = (file) => path.join(systemRoot, file);

/** @param {string} name @returns {string | null} the program's path on the PATH */
function onPath(name) {
  for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
    if (folder && isExecutable(path.join(folder, name))) return path.join(folder, name);
  }
  return null;
}

/** @returns {string[]} /usr/lib/postgresql/<version>/bin */
function debianPostgresFolders() {
  try {
    return readdirSync(system("/usr/lib/postgresql"))
      .filter((version) => /^\d+$/.test(version))
      .map((version) => system(`/usr/lib/postgresql/${version}/bin`));
  } catch {
    return [];
  }
}

/** @typedef {{ what: string, packages: string[] }} Need */

/** @returns {Need[]} what is missing, with the Debian packages that provide it */
function missing() {
  /** @type {Need[]} */
  const needs = [];
  const chromium =
    Boolean(process.env.CHROMIUM_PATH) ||
    isExecutable(system("/usr/bin/chromium-headless-shell")) ||
    isExecutable(system("/usr/bin/chromium"));
  if (!chromium) needs.push({ what: "Chromium", packages: ["chromium", "chromium-headless-shell"] });
  const postgresFolders = [process.env.PG_BIN, ...debianPostgresFolders(), ...(process.env.PATH ?? "").split(path.delimiter)];
  const postgres = postgresFolders.some(
    (folder) => folder && ["initdb", "pg_ctl", "postgres"].every((name) => isExecutable(path.join(folder, name))),
  );
  if (!postgres) needs.push({ what: "PostgreSQL", packages: ["postgresql"] });
  return needs;
}

/** @param {string} line @returns {never} */
function stop(line) {
  console.error(line);
  process.exit(1);
}

// CHROMIUM_PATH chooses the Chromium of the tests: Debian's would not be used.
const chosenChromium = process.env.CHROMIUM_PATH;
if (chosenChromium && !isExecutable(chosenChromium)) {
  stop(
    `npm test: CHROMIUM_PATH is ${chosenChromium}, not an executable program: set it to a Chromium, or unset it to use Debian's.`,
  );
}

const needs = missing();
if (needs.length === 0) process.exit(0);

const what = needs.map((need) => need.what).join(" and ");
const packages = needs.flatMap((need) => need.packages);
const aptGet = onPath("apt-get");
if (!asRoot || !aptGet) {
  const orChromiumPath = needs.some((need) => need.what === "Chromium") ? " (or set CHROMIUM_PATH to a Chromium)" : "";
  stop(
    `npm test needs ${what}, not installed: install Debian's packages as root with \`apt-get install ${packages.join(" ")}\`${orChromiumPath}, then run npm test again.`,
  );
}

const log = path.join(os.tmpdir(), "shop-test-prerequisites-apt.log");
console.log(`Installing Debian's ${packages.join(" ")} for the tests (apt-get's output in ${log})...`);
const out = openSync(log, "w");
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
let status = 0;
for (const aptArgs of [
  ["update", "-qq"],
  ["install", "-y", "-qq", ...packages],
]) {
  const result = spawnSync(aptGet, aptArgs, { stdio: ["ignore", out, out], env });
  status = result.status ?? 1;
  if (status !== 0) break;
}
closeSync(out);
const stillMissing = missing();
if (status !== 0 || stillMissing.length > 0) {
  const lastLines = readFileSync(log, "utf8").trimEnd().split("\n").slice(-20).join("\n");
  if (lastLines) console.error(lastLines);
  const reason =
    status !== 0
      ? `apt-get exited with code ${status}`
      : `${stillMissing.map((need) => need.what).join(" and ")} still not found`;
  stop(`npm test: Debian's ${packages.join(" ")} could not be installed (${reason}, see ${log}).`);
}
