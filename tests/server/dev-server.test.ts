import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "../helpers/chromium";
import { freePort } from "./shop-process";

/**
 * `npm run dev` as a developer uses it: Vite's dev server with Remix, on a copy of the shop's
 * sources (so that editing a route never touches the real one), in Debian's Chromium. An edit of
 * a route reaches the open page without a reload: the page keeps its state.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const COPY = path.join(ROOT, "tests/.tmp", `dev-${process.pid}`);
const ROUTE = path.join(COPY, "app/routes/faq.tsx");

let dev: ChildProcess;
let browser: Browser;
let url: string;
let output = "";

beforeAll(async () => {
  rmSync(COPY, { recursive: true, force: true });
  mkdirSync(COPY, { recursive: true });
  for (const entry of [
    "app",
    "public",
    "vite.config.ts",
    "postcss.config.js",
    "tailwind.config.ts",
    "tsconfig.json",
    "package.json",
    "drizzle",
    "drizzle-pg",
    "stripe-emulator",
  ]) {
    cpSync(path.join(ROOT, entry), path.join(COPY, entry), { recursive: true });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(COPY, "node_modules"));
  const port = await freePort();
  const emulatorPort = await freePort();
  url = `http://localhost:${port}`;
  dev = spawn(
    process.execPath,
    ["node_modules/@remix-run/dev/dist/cli.js", "vite:dev", "--port", String(port), "--strictPort", "--host", "localhost"],
    {
      cwd: COPY,
      env: {
        ...process.env,
        NODE_ENV: "development",
        SHOP_MODE: "demo",
        DATA_DIR: path.join(COPY, "data"),
        DATABASE_URL: path.join(COPY, "data/shop.db"),
        STRIPE_EMULATOR_PORT: String(emulatorPort),
        STRIPE_SECRET_KEY: "",
        STRIPE_PUBLISHABLE_KEY: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  dev.stdout!.on("data", (chunk) => (output += chunk));
  dev.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 90_000;
  for (;;) {
    const answer = await fetch(`${url}/faq`).catch(() => null);
    if (answer?.ok) break;
    if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`the dev server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once("exit", resolve));
    dev.kill("SIGTERM");
    await exited;
  }
  rmSync(COPY, { recursive: true, force: true });
});

/**
 * The dev server compiles each module the first time the browser asks for it, and may find a
 * dependency to bundle then, which reloads the page: on a busy machine the first view takes a
 * while. The page is opened until it has hydrated and stays so for a moment, then reloaded once,
 * as a developer would start working on it.
 */
const FIRST_VIEW_MS = 120_000;

describe("npm run dev", () => {
  it(
    "serves the shop, and an edited route reaches the open page without a reload",
    async () => {
      const page = await browser.newPage();
      page.setDefaultTimeout(FIRST_VIEW_MS);
      const firstErrors: string[] = [];
      page.on("pageerror", (error) => firstErrors.push(error.message));
      // Opened again if it has not hydrated after a while (a dependency bundled meanwhile), as a
      // developer would; then reloaded once it has.
      let hydrated = false;
      for (let view = 0; view < 3 && !hydrated; view++) {
        await page.goto(`${url}/faq`, { timeout: FIRST_VIEW_MS });
        hydrated = await page
          .waitForSelector("html[data-hydrated]", { timeout: FIRST_VIEW_MS / 3 })
          .then(() => true)
          .catch(() => false);
      }
      expect(hydrated, `the page never hydrated: ${firstErrors.join("\n")}\n${output.slice(-3000)}`).toBe(true);
      await page.reload();
      await page.waitForSelector("html[data-hydrated]", { timeout: FIRST_VIEW_MS });
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Questions fréquentes");

      // From here on: no error, and a mark the page keeps as long as it is not reloaded.
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));

      writeFileSync(
        ROUTE,
        readFileSync(ROUTE, "utf8").replace('title="Questions fréquentes"', 'title="Questions fréquentes (modifiée)"'),
      );

      await expect
        .poll(() => page.getByRole("heading", { level: 1 }).textContent(), { timeout: 60_000 })
        .toBe("Questions fréquentes (modifiée)");
      expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
      expect(output).toMatch(/hmr update .*faq\.tsx/);
      expect(errors).toEqual([]);
    },
    4 * 60_000,
  );
});
