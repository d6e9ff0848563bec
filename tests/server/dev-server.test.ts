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
  const deadline = Date.now() + 30_000;
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
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once("exit", resolve));
    dev.kill("SIGTERM");
    await exited;
  }
  rmSync(COPY, { recursive: true, force: true });
});

describe("npm run dev", () => {
  it("serves the shop, and an edited route reaches the open page without a reload", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(`${url}/faq`);
    await page.waitForSelector("html[data-hydrated]");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Questions fréquentes");
    // A mark the page keeps as long as it is not reloaded.
    await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));

    writeFileSync(
      ROUTE,
      readFileSync(ROUTE, "utf8").replace('title="Questions fréquentes"', 'title="Questions fréquentes (modifiée)"'),
    );

    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent(), { timeout: 15_000 })
      .toBe("Questions fréquentes (modifiée)");
    expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
    expect(output).toMatch(/hmr update .*faq\.tsx/);
    expect(errors).toEqual([]);
  }, 60_000);
});
