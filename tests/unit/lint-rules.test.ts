// The lint rules that keep the code's structure (docs/architecture.md, « Les couches » and « Les
// dossiers des services »), checked with the project's own eslint.config.js on small planted
// files: an import cycle between two .ts files fails `npm run lint`, while a cycle made only by
// type imports does not; a services folder that calls a folder above it fails too, and so does a
// layer that imports one above it.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
// tests/.tmp is left out of the lint run (and of git): the planted files never reach `npm run lint`.
const planted = path.join(root, "tests/.tmp", `lint-rules-${process.pid}`);

afterAll(() => rmSync(planted, { recursive: true, force: true }));

/** Writes the files into a folder of their own (the import plugin caches what it has read per path) and returns their paths. */
function plant(folder: string, files: Record<string, string>): string[] {
  const dir = path.join(planted, folder);
  mkdirSync(dir, { recursive: true });
  return Object.entries(files).map(([name, text]) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  });
}

// `ignore: false`: the planted files are linted although tests/.tmp is ignored by the configuration.
const eslint = new ESLint({ cwd: root, ignore: false });

async function cycleErrors(files: string[]) {
  const results = await eslint.lintFiles(files);
  for (const result of results) expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return results.flatMap((r) =>
    r.messages.filter((m) => m.ruleId === "import-x/no-cycle").map((m) => ({ file: path.basename(r.filePath), ...m })),
  );
}

describe("import cycles", () => {
  it("reports a run-time cycle between two .ts files, in both files", async () => {
    const files = plant("runtime-cycle", {
      "prices.ts": 'import { vat } from "./taxes";\n\nexport const price = (cents: number) => cents + vat(cents);\n',
      "taxes.ts":
        'import { price } from "./prices";\n\nexport const vat = (cents: number) => Math.round(cents * 0.2);\nexport const withVat = (cents: number) => price(cents);\n',
    });
    const errors = await cycleErrors(files);
    expect(errors.map((e) => [e.file, e.severity])).toEqual([
      ["prices.ts", 2],
      ["taxes.ts", 2],
    ]);
  });

  it("reports a cycle through a third file", async () => {
    const files = plant("longer-cycle", {
      "a.ts": 'import { b } from "./b";\n\nexport const a = () => b();\n',
      "b.ts": 'import { c } from "./c";\n\nexport const b = () => c();\n',
      "c.ts": 'import { a } from "./a";\n\nexport const c = () => a;\n',
    });
    expect((await cycleErrors(files)).map((e) => e.file)).toEqual(["a.ts", "b.ts", "c.ts"]);
  });

  it("accepts a cycle made only by type imports, whether written `import type` or `import { type … }`", async () => {
    const files = plant("type-cycle", {
      "order.ts":
        'import type { Line } from "./line";\nimport { type Item } from "./item";\n\nexport type Order = { lines: Line[]; items: Item[] };\nexport const emptyOrder = (): Order => ({ lines: [], items: [] });\n',
      "line.ts":
        'import { emptyOrder } from "./order";\n\nexport type Line = { cents: number };\nexport const firstLine = (): Line | undefined => emptyOrder().lines[0];\n',
      "item.ts":
        'import { emptyOrder } from "./order";\n\nexport type Item = { name: string };\nexport const firstItem = (): Item | undefined => emptyOrder().items[0];\n',
    });
    expect(await cycleErrors(files)).toEqual([]);
  });
});

describe("services folders", () => {
  // From the top down: each folder may call the folders after it, never one before it.
  const folders = ["payments", "subscriptions", "email", "orders", "customers"];
  // A module of each folder, and one of its functions, for the planted imports.
  const modules: Record<string, [string, string]> = {
    payments: ["payment-state.server", "markOrderPaid"],
    subscriptions: ["record.server", "findSubscription"],
    email: ["notifications.server", "queueOrderPaidEmails"],
    orders: ["find.server", "findOrder"],
    customers: ["accounts.server", "findOrCreateCustomer"],
  };
  // The planted imports are only read, never followed: the cycle check is left out here.
  const linter = new ESLint({ cwd: root, overrideConfig: { rules: { "import-x/no-cycle": "off" } } });

  async function restrictions(folder: string, code: string) {
    const [result] = await linter.lintText(code, { filePath: path.join(root, "app/services", folder, "planted.server.ts") });
    expect(result.messages.filter((m) => m.fatal)).toEqual([]);
    return result.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
  }

  const runtimeImport = (target: string, from = `~/services/${target}/`) => {
    const [module, name] = modules[target];
    return `import { ${name} } from "${from}${module}";\n\nexport const planted = ${name};\n`;
  };

  it("refuses a call from a folder to any folder above it", async () => {
    for (const [rank, folder] of folders.entries()) {
      for (const above of folders.slice(0, rank)) {
        expect(await restrictions(folder, runtimeImport(above)), `${folder} -> ${above}`).toEqual([
          expect.stringContaining(`services/${above}/ is above this folder: move the shared piece down, or pass it a callback.`),
        ]);
      }
    }
  });

  it("refuses it written as a relative path too", async () => {
    expect(await restrictions("subscriptions", runtimeImport("payments", "../payments/"))).toHaveLength(1);
    expect(await restrictions("email", runtimeImport("subscriptions", "../../services/subscriptions/"))).toHaveLength(1);
  });

  it("accepts a call to any folder below, and a type import from a folder above", async () => {
    for (const [rank, folder] of folders.entries()) {
      for (const below of folders.slice(rank + 1)) {
        expect(await restrictions(folder, runtimeImport(below)), `${folder} -> ${below}`).toEqual([]);
      }
    }
    const typeImport =
      'import type { PaymentAccess } from "~/services/payments/payment-state.server";\n\nexport type Planted = PaymentAccess;\n';
    expect(await restrictions("customers", typeImport)).toEqual([]);
  });

  it("keeps the rule of the services layer in each folder", async () => {
    const fromRoute = 'import { loader } from "~/routes/_index";\n\nexport const planted = loader;\n';
    for (const folder of folders) {
      expect(await restrictions(folder, fromRoute), folder).toEqual([
        expect.stringContaining("Routes are the top layer: nothing imports them."),
      ]);
    }
  });
});

describe("layers of app/pages, app/openapi and app/content", () => {
  const linter = new ESLint({ cwd: root, overrideConfig: { rules: { "import-x/no-cycle": "off" } } });

  async function restrictions(file: string, from: string) {
    const code = `import { planted as imported } from "${from}";\n\nexport const planted = imported;\n`;
    const [result] = await linter.lintText(code, { filePath: path.join(root, "app", file) });
    expect(result.messages.filter((m) => m.fatal)).toEqual([]);
    return result.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
  }

  it("lets a page's loader call the services and the HTTP helpers, not the views", async () => {
    expect(await restrictions("pages/planted.server.ts", "~/services/packs.server")).toEqual([]);
    expect(await restrictions("pages/planted.server.ts", "~/http/cache-control")).toEqual([]);
    expect(await restrictions("pages/planted.server.ts", "~/components/ui/button")).toHaveLength(1);
  });

  it("keeps app/pages and app/openapi out of the layers below them", async () => {
    expect(await restrictions("http/planted.server.ts", "~/pages/landing.server")).toEqual([
      expect.stringContaining("A page's loader or action belongs to its route only."),
    ]);
    expect(await restrictions("services/planted.server.ts", "~/openapi/operations.server")).toEqual([
      expect.stringContaining("The OpenAPI document belongs to its routes and tests."),
    ]);
    expect(await restrictions("lib/planted.ts", "~/pages/landing.server")).toHaveLength(1);
  });

  it("builds the OpenAPI document from the schemas, without the services", async () => {
    expect(await restrictions("openapi/planted.server.ts", "~/schemas/cart")).toEqual([]);
    expect(await restrictions("openapi/planted.server.ts", "~/services/packs.server")).toHaveLength(1);
  });

  it("gives app/content the rules of app/lib", async () => {
    expect(await restrictions("content/planted.ts", "~/lib/money")).toEqual([]);
    for (const from of ["~/services/packs.server", "~/http/cache-control", "~/components/ui/button", "~/db/client"]) {
      expect(await restrictions("content/planted.ts", from), from).toHaveLength(1);
    }
  });
});

describe("e2e tests act as shoppers of their own", () => {
  const linter = new ESLint({ cwd: root });
  async function restrictions(file: string, code: string) {
    const [result] = await linter.lintText(code, { filePath: path.join(root, "tests/e2e", file) });
    return result.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
  }

  it("refuses a spec's test taken from @playwright/test, which would send no address of its own", async () => {
    const spec = 'import { expect, test } from "@playwright/test";\n\ntest("x", () => expect(1).toBe(1));\n';
    expect(await restrictions("planted.spec.ts", spec)).toEqual([expect.stringContaining("Import test from ./shopper")]);
  });

  it("accepts the test of ./shopper, and types from @playwright/test", async () => {
    const spec =
      'import type { Page } from "@playwright/test";\nimport { expect, test } from "./shopper";\n\nexport const open = (page: Page) => page.goto("/");\ntest("x", () => expect(1).toBe(1));\n';
    expect(await restrictions("planted.spec.ts", spec)).toEqual([]);
  });
});

describe("one card field", () => {
  const form = 'import { CardElement } from "@stripe/react-stripe-js";\n\nexport const Field = () => <CardElement />;\n';

  it("refuses Stripe's CardElement in a card form: it takes CardField, written once", async () => {
    const [result] = await eslint.lintText(form, { filePath: path.join(root, "app/components/subscription/NewCardForm.tsx") });
    expect(result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message)).toEqual([
      "'CardElement' import from '@stripe/react-stripe-js' is restricted. Use CardField (components/checkout/CardField.tsx): one card field for every card form.",
    ]);
  });

  it("accepts it in CardField itself", async () => {
    const [result] = await eslint.lintText(form, { filePath: path.join(root, "app/components/checkout/CardField.tsx") });
    expect(result.messages.filter((m) => m.ruleId === "no-restricted-imports")).toEqual([]);
  });
});
