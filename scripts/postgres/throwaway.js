// @ts-check
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

/**
 * A throwaway PostgreSQL server, for the tests and to try the shop on PostgreSQL: a new cluster in a temp folder, listening on a free
 * 127.0.0.1 port (and a socket in the folder), with one empty database. PostgreSQL refuses to
 * run as root: as root, the folder belongs to the `postgres` user and the server runs as it.
 * Debian's `postgresql` package provides the programs (npm test installs it: scripts/test-prerequisites.js).
 */

/** @typedef {{ url: string, stop(): Promise<void> }} TestPostgres */

/** The folder holding initdb, pg_ctl and postgres, or null when PostgreSQL is not installed. */
/** @returns {string | null} */
export function postgresBinaries() {
  const folders = [process.env.PG_BIN, ...debianFolders(), ...(process.env.PATH ?? "").split(path.delimiter)];
  for (const folder of folders) {
    if (folder && ["initdb", "pg_ctl", "postgres"].every((name) => existsSync(path.join(folder, name)))) return folder;
  }
  return null;
}

/** /usr/lib/postgresql/<version>/bin, newest version first. */
/** @returns {string[]} */
function debianFolders() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(root, version, "bin"));
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program, as the `postgres` user when we are root. */
/** @param {string} bin @param {string} program @param {string[]} args */
function run(bin, program, args) {
  const file = path.join(bin, program);
  const [command, commandArgs] = asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
  return execFileSync(command, commandArgs, { stdio: "pipe", encoding: "utf8" });
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a new server with an empty database `shop` (user `postgres`, no password).
 * Throws when PostgreSQL is not installed: test files check postgresBinaries() first.
 * @param {{ port?: number }} [options] a port of 127.0.0.1 to listen on (a free one by default)
 * @returns {Promise<TestPostgres>}
 */
export async function startPostgres({ port: chosenPort } = {}) {
  const bin = postgresBinaries();
  if (!bin) throw new Error("PostgreSQL n'est pas installé (initdb, pg_ctl) : installez le paquet Debian postgresql.");
  const dir = mkdtempSync(path.join(os.tmpdir(), "shop-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, "data");
  const log = path.join(dir, "server.log");
  let started = false;
  const stopNow = () => {
    if (started) spawnSync(...stopCommand(bin, data), { stdio: "ignore" });
    started = false;
    rmSync(dir, { recursive: true, force: true });
  };
  // A test process that ends without stop() leaves no server behind.
  process.once("exit", stopNow);
  try {
    run(bin, "initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    let port = 0;
    // Another process may take the free port before the server does: try again with another one.
    for (let attempt = 1; !started; attempt++) {
      port = chosenPort ?? (await freePort());
      const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        run(bin, "pg_ctl", ["-D", data, "-l", log, "-o", options, "-w", "-t", "30", "start"]);
        started = true;
      } catch (error) {
        if (attempt >= 3 || chosenPort) throw error;
      }
    }
    const admin = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
    await admin.connect();
    try {
      await admin.query("CREATE DATABASE shop");
    } finally {
      await admin.end();
    }
    return {
      url: `postgres://postgres@127.0.0.1:${port}/shop`,
      async stop() {
        process.removeListener("exit", stopNow);
        stopNow();
      },
    };
  } catch (error) {
    const serverLog = existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : "";
    process.removeListener("exit", stopNow);
    stopNow();
    const output = /** @type {{ stderr?: string }} */ (error).stderr ?? "";
    throw new Error(`PostgreSQL n'a pas démarré : ${/** @type {Error} */ (error).message}\n${output}\n${serverLog}`);
  }
}

/** @param {string} bin @param {string} data @returns {[string, string[]]} */
function stopCommand(bin, data) {
  const args = ["-D", data, "-m", "immediate", "-w", "stop"];
  const file = path.join(bin, "pg_ctl");
  return asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
}

/**
 * `node scripts/postgres/throwaway.js [--port N] <command> [args...]`: runs the command with DATABASE_URL
 * naming a new throwaway PostgreSQL database, then stops the server and removes its folder when
 * the command ends (or on Ctrl-C / SIGTERM, passed on to the command). For example
 * `node scripts/postgres/throwaway.js npm run serve`, or the end-to-end tests on PostgreSQL.
 */
async function main() {
  const argv = process.argv.slice(2);
  const port = argv[0] === "--port" ? Number(argv.splice(0, 2)[1]) : undefined;
  const [command, ...args] = argv;
  if (!command || (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536))) {
    console.error("Usage : node scripts/postgres/throwaway.js [--port N] <commande> [arguments...]");
    process.exit(2);
  }
  const server = await startPostgres({ port });
  const { spawn } = await import("node:child_process");
  // The command in a process group of its own: a signal reaches every process it started (npm
  // start runs npm run serve, which runs node), and PostgreSQL stops only once they have all ended.
  const child = spawn(command, args, { stdio: "inherit", detached: true, env: { ...process.env, DATABASE_URL: server.url } });
  const group = /** @type {number} */ (child.pid);
  const alive = () => {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
    process.on(signal, () => {
      if (alive()) process.kill(-group, signal);
    });
  }
  child.on("exit", async (code, signal) => {
    for (let waited = 0; alive() && waited < 20_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    if (alive()) process.kill(-group, "SIGKILL");
    await server.stop();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
