import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { SERVER_TEST_BUILD } from "./shop-process";

/**
 * The server tests run server/index.js against a real build: made here once per run, in its own
 * folder (SHOP_BUILD_NAME, see vite.config.ts), so they need no earlier `npm run build` and
 * never touch build/.
 */
function removeBuild() {
  rmSync(SERVER_TEST_BUILD, { recursive: true, force: true });
}

export default function setup() {
  removeBuild();
  try {
    execFileSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "vite:build"], {
      env: { ...process.env, SHOP_BUILD_NAME: SERVER_TEST_BUILD, NODE_ENV: "production" },
      stdio: "pipe",
    });
  } catch (error) {
    const failure = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`The build for the server tests failed:\n${failure.stdout ?? ""}${failure.stderr ?? ""}`);
  }
  return removeBuild;
}
