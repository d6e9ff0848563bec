import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { NODE_FLAGS } from "../../server/node-flags.js";
import composeSpec from "../helpers/compose-spec.json";

/**
 * The deployment files, checked without Docker (no daemon on the machines of the tests, and no
 * hadolint in Debian or npm): the Dockerfile's rules read from its instructions, its two
 * commands (the start and the health check) run for real, and compose.yaml validated against
 * the Compose Specification's JSON schema (compose-spec/compose-spec, schema/compose-spec.json,
 * commit 170098b, Apache 2.0), as `docker compose config` would.
 */

const root = path.resolve(import.meta.dirname, "../..");

type Instruction = { keyword: string; args: string };
type Stage = { image: string; name: string | undefined; instructions: Instruction[] };

/** The Dockerfile's stages and their instructions: comments dropped, continued lines joined. */
function dockerfileStages(text: string): Stage[] {
  const lines = text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (keyword.toUpperCase() === "FROM") {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args.trim())!;
      stages.push({ image, name, instructions: [] });
    } else stages.at(-1)!.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}

const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
const stages = dockerfileStages(dockerfile);
const runtime = stages.at(-1)!;
const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
/** The stage whose files the runtime copies from `source`. */
const copiedFrom = (source: string) => {
  const copy = all(runtime, "COPY").find((i) => new RegExp(`--from=\\S+.*\\s${source}\\s`).test(i.args));
  const name = /--from=(\S+)/.exec(copy?.args ?? "")?.[1];
  return stages.find((stage) => stage.name === name);
};

describe("the Dockerfile", () => {
  it("builds in several stages, each on Node 20 slim", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.image).toMatch(/^node:20(\.\d+)*-(\w+-)?slim$/);
  });

  it("runs with the production dependencies of npm ci --omit=dev, and the build of npm run build", () => {
    const deps = copiedFrom("/app/node_modules");
    expect(deps, "node_modules copied from a stage").toBeDefined();
    expect(all(deps!, "RUN").some((i) => /\bnpm ci --omit=dev\b/.test(i.args))).toBe(true);
    const build = copiedFrom("/app/build");
    expect(build, "build copied from a stage").toBeDefined();
    expect(all(build!, "RUN").some((i) => /\bnpm run build\b/.test(i.args))).toBe(true);
    // The runtime installs nothing from npm itself: no dev dependency reaches it.
    expect(all(runtime, "RUN").some((i) => /\bnpm (ci|install)\b/.test(i.args))).toBe(false);
  });

  it("copies only files that exist, and keeps secrets and local data out of the image", () => {
    for (const stage of stages) {
      for (const copy of all(stage, "COPY").filter((i) => !i.args.includes("--from="))) {
        const sources = copy.args
          .split(/\s+/)
          .filter((word) => !word.startsWith("--"))
          .slice(0, -1);
        for (const source of sources) if (source !== ".") expect(existsSync(path.join(root, source)), source).toBe(true);
      }
    }
    const ignored = readFileSync(path.join(root, ".dockerignore"), "utf8").split("\n");
    for (const entry of ["node_modules", ".env", "data", "*.db"]) expect(ignored).toContain(entry);
  });

  it("runs as a user other than root, with the database in a volume", () => {
    const users = all(runtime, "USER").map((i) => i.args.trim());
    expect(users.length).toBeGreaterThan(0);
    expect(["root", "0", "0:0"]).not.toContain(users.at(-1));
    const keywords = runtime.instructions.map((i) => i.keyword);
    expect(keywords.lastIndexOf("USER")).toBeLessThan(keywords.indexOf("CMD"));
    expect(
      all(runtime, "ENV")
        .map((i) => i.args)
        .join(" "),
    ).toMatch(/DATABASE_URL=\/data\/shop\.db/);
    expect(
      all(runtime, "VOLUME")
        .map((i) => i.args)
        .join(" "),
    ).toContain("/data");
    // pg_dump and pg_restore for npm run db:backup and db:restore on PostgreSQL.
    expect(all(runtime, "RUN").some((i) => /apt-get install .*postgresql-client/.test(i.args))).toBe(true);
  });

  it("refuses to start without SHOP_MODE", () => {
    const command = JSON.parse(all(runtime, "CMD")[0].args) as string[];
    expect(command.slice(0, 2)).toEqual(["sh", "-c"]);
    const started = spawnSync("sh", ["-c", command[2]], {
      env: { PATH: process.env.PATH } as unknown as NodeJS.ProcessEnv,
      encoding: "utf8",
    });
    expect(started.status).not.toBe(0);
    expect(started.stderr).toContain("SHOP_MODE est requis : demo ou live");
    // With the V8 flags of every shop process (server/node-flags.js).
    expect(command[2]).toMatch(/exec node (--\S+ )*server\/index\.js$/);
    expect(command[2].endsWith(`exec node ${NODE_FLAGS.join(" ")} server/index.js`)).toBe(true);
  });

  describe("its health check asks /healthz", () => {
    let status = 200;
    const asked: string[] = [];
    const server = http.createServer((request, response) => {
      asked.push(request.url!);
      response.writeHead(request.url === "/healthz" ? status : 404).end();
    });
    beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)));
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** The health check's command, run as Docker runs it in the container; its exit code. */
    const check = () => {
      const [healthcheck] = all(runtime, "HEALTHCHECK");
      expect(healthcheck.args).toMatch(/--interval=\S+ --timeout=\S+/);
      const command = JSON.parse(/CMD\s+(\[.*\])$/.exec(healthcheck.args)![1]) as string[];
      const port = String((server.address() as AddressInfo).port);
      const child = spawn(command[0] === "node" ? process.execPath : command[0], command.slice(1), {
        env: { PATH: process.env.PATH, PORT: port } as unknown as NodeJS.ProcessEnv,
        stdio: "ignore",
      });
      return new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    };

    it("healthy when it answers 200, unhealthy otherwise", async () => {
      status = 200;
      expect(await check()).toBe(0);
      status = 503;
      expect(await check()).toBe(1);
      expect(asked).toEqual(["/healthz", "/healthz"]);
    });
  });
});

describe("compose.yaml", () => {
  const compose = parse(readFileSync(path.join(root, "compose.yaml"), "utf8"));
  // The schema names draft-07 by an address Ajv does not know; draft-07 is Ajv's own.
  const { $schema: _draft, ...schema } = composeSpec;
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

  it("is valid by the Compose Specification's schema", () => {
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
    // The schema check itself refuses a mistake.
    const broken = structuredClone(compose);
    broken.services.shop.enviroment = broken.services.shop.environment;
    expect(validate(broken)).toBe(false);
  });

  it("runs the shop on PostgreSQL with a mail catcher, once PostgreSQL is ready", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["mailpit", "postgres", "shop"]);
    const shop = compose.services.shop;
    expect(shop.build).toBe(".");
    expect(shop.environment.DATABASE_URL).toMatch(/^postgres:\/\/boutique:.*@postgres:5432\/boutique$/);
    expect(shop.environment.SMTP_URL).toBe("smtp://mailpit:1025");
    expect(shop.environment.SHOP_MODE).toBeTruthy();
    expect(shop.depends_on.postgres.condition).toBe("service_healthy");
    expect(compose.services.postgres.healthcheck.test.join(" ")).toContain("pg_isready");
    expect(compose.services.mailpit.image).toMatch(/^axllent\/mailpit/);
    // The shop's pg_dump (Debian bookworm's postgresql-client, PostgreSQL 15) is no older than the server.
    expect(Number(/^postgres:(\d+)/.exec(compose.services.postgres.image)![1])).toBeLessThanOrEqual(15);
    expect(shop.volumes).toContain("shop-data:/data");
  });
});

describe("npm run serve", () => {
  it("starts node with the V8 flags of every shop process, as the Dockerfile does", () => {
    const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.serve).toBe(`NODE_ENV=production node ${NODE_FLAGS.join(" ")} server/index.js`);
    // The young generation they give: 8 MB per semi-space, whatever the machine's memory.
    const child = spawnSync(
      process.execPath,
      [
        ...NODE_FLAGS,
        "-e",
        "let keep = []; for (let i = 0; i < 2e6; i++) { keep.push({ i }); if (keep.length > 1e5) keep = []; }" +
          "process.stdout.write(String(require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size))",
      ],
      { encoding: "utf8" },
    );
    expect(Number(child.stdout)).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});
