import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/**
 * scripts/test-prerequisites.js, run by `npm test` before the tests: on a machine made in a temp
 * folder (--system-root), with a PATH of our own where `apt-get` is a stand-in that writes down
 * its arguments and, asked to install, lays the programs its packages provide.
 */

const script = path.resolve("scripts/test-prerequisites.js");
let dir: string;
let systemRoot: string;
let bin: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "shop-prerequisites-"));
  systemRoot = path.join(dir, "system");
  bin = path.join(dir, "bin");
  mkdirSync(systemRoot);
  mkdirSync(bin);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function program(file: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "#!/bin/sh\n");
  chmodSync(file, 0o755);
}

const debianChromium = () => program(path.join(systemRoot, "usr/bin/chromium"));
const debianPostgres = () => {
  for (const name of ["initdb", "pg_ctl", "postgres"]) program(path.join(systemRoot, "usr/lib/postgresql/17/bin", name));
};

const aptCalls = () => path.join(dir, "apt-get-calls");

/** A stand-in apt-get: writes down its arguments; `install` lays the packages' programs, `fail` exits with 100. */
function fakeAptGet({ fail = false } = {}) {
  const root = systemRoot;
  writeFileSync(
    path.join(bin, "apt-get"),
    `#!/bin/sh
PATH=/usr/bin:/bin
echo "$*" >> '${aptCalls()}'
echo "apt-get $1 ran"
${fail ? "exit 100" : ""}
[ "$1" = install ] || exit 0
for package in "$@"; do
  case "$package" in
    chromium) mkdir -p '${root}/usr/bin' && printf '#!/bin/sh\\n' > '${root}/usr/bin/chromium' && chmod +x '${root}/usr/bin/chromium' ;;
    postgresql) mkdir -p '${root}/usr/lib/postgresql/17/bin' && for p in initdb pg_ctl postgres; do printf '#!/bin/sh\\n' > '${root}/usr/lib/postgresql/17/bin/'$p; chmod +x '${root}/usr/lib/postgresql/17/bin/'$p; done ;;
  esac
done
`,
  );
  chmodSync(path.join(bin, "apt-get"), 0o755);
}

function run(flags: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [script, "--system-root", systemRoot, ...flags], {
    encoding: "utf8",
    env: { NODE_ENV: "test", PATH: bin, TMPDIR: dir, ...env },
  });
  const lines = (text: string) => text.split("\n").filter((line) => line.trim());
  return { status: result.status, stdout: lines(result.stdout), stderr: lines(result.stderr) };
}

describe("npm test's prerequisites", () => {
  it("says nothing and lets the tests run when Chromium and PostgreSQL are there", () => {
    debianChromium();
    debianPostgres();
    fakeAptGet();
    expect(run(["--as-root"])).toEqual({ status: 0, stdout: [], stderr: [] });
    expect(existsSync(aptCalls())).toBe(false);
  });

  it("takes Debian's headless shell alone for Chromium", () => {
    program(path.join(systemRoot, "usr/bin/chromium-headless-shell"));
    debianPostgres();
    expect(run(["--not-root"])).toEqual({ status: 0, stdout: [], stderr: [] });
  });

  it("stops with one line saying what to install when not root, without calling apt-get", () => {
    fakeAptGet();
    const result = run(["--not-root"]);
    expect(result.status).toBe(1);
    expect(result.stdout).toEqual([]);
    expect(result.stderr).toEqual([
      "npm test needs Chromium and PostgreSQL, not installed: install Debian's packages as root with `apt-get install chromium chromium-headless-shell postgresql` (or set CHROMIUM_PATH to a Chromium), then run npm test again.",
    ]);
    expect(existsSync(aptCalls())).toBe(false);
  });

  it("names only what is missing", () => {
    debianChromium();
    const result = run(["--not-root"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toEqual([
      "npm test needs PostgreSQL, not installed: install Debian's packages as root with `apt-get install postgresql`, then run npm test again.",
    ]);
  });

  it("stops the same way as root on a machine without apt-get", () => {
    debianPostgres();
    const result = run(["--as-root"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toEqual([expect.stringContaining("`apt-get install chromium chromium-headless-shell`")]);
  });

  it("needs no Debian Chromium when CHROMIUM_PATH is a program", () => {
    debianPostgres();
    const chromium = path.join(dir, "my-chromium");
    program(chromium);
    expect(run(["--not-root"], { CHROMIUM_PATH: chromium })).toEqual({ status: 0, stdout: [], stderr: [] });
  });

  it("stops when CHROMIUM_PATH is not a program, even with Debian's Chromium there", () => {
    debianChromium();
    debianPostgres();
    fakeAptGet();
    const result = run(["--as-root"], { CHROMIUM_PATH: path.join(dir, "nothing-here") });
    expect(result.status).toBe(1);
    expect(result.stderr).toEqual([
      `npm test: CHROMIUM_PATH is ${path.join(dir, "nothing-here")}, not an executable program: set it to a Chromium, or unset it to use Debian's.`,
    ]);
    expect(existsSync(aptCalls())).toBe(false);
  });

  it("installs the missing packages as root with apt-get, its output in a log, and lets the tests run", () => {
    fakeAptGet();
    const result = run(["--as-root"]);
    const log = path.join(dir, "shop-test-prerequisites-apt.log");
    expect(result).toEqual({
      status: 0,
      stdout: [`Installing Debian's chromium chromium-headless-shell postgresql for the tests (apt-get's output in ${log})...`],
      stderr: [],
    });
    expect(readFileSync(aptCalls(), "utf8")).toBe("update -qq\ninstall -y -qq chromium chromium-headless-shell postgresql\n");
    expect(readFileSync(log, "utf8")).toBe("apt-get update ran\napt-get install ran\n");
    expect(existsSync(path.join(systemRoot, "usr/bin/chromium"))).toBe(true);
  });

  it("fails, with the end of apt-get's log, when apt-get fails", () => {
    debianChromium();
    fakeAptGet({ fail: true });
    const result = run(["--as-root"]);
    const log = path.join(dir, "shop-test-prerequisites-apt.log");
    expect(result.status).toBe(1);
    expect(result.stdout).toEqual([`Installing Debian's postgresql for the tests (apt-get's output in ${log})...`]);
    expect(result.stderr).toEqual([
      "apt-get update ran",
      `npm test: Debian's postgresql could not be installed (apt-get exited with code 100, see ${log}).`,
    ]);
    expect(readFileSync(aptCalls(), "utf8")).toBe("update -qq\n");
  });
});
