import { describe, expect, it } from "vitest";
import { createLogger, prettyLine, requestContext } from "~/log.server";

/** A logger of the shop's rules writing its lines here. */
function capture(options: { pretty?: boolean } = {}) {
  const lines: string[] = [];
  const log = createLogger({ level: "debug", destination: { write: (line: string) => void lines.push(line) }, ...options });
  return { log, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the shop's log", () => {
  it("writes one JSON line per event with its time, level and message, and the request's id inside a request", () => {
    const { log, entries } = capture();
    log.info("Boutique prête");
    requestContext.run({ id: "req-42" }, () => log.warn({ route: "/panier" }, "Panier introuvable"));
    const [outside, inside] = entries();
    expect(outside).toMatchObject({ level: "info", msg: "Boutique prête", pid: process.pid });
    expect(Date.parse(String(outside.time))).not.toBeNaN();
    expect(outside).not.toHaveProperty("reqId");
    expect(inside).toMatchObject({ level: "warn", msg: "Panier introuvable", reqId: "req-42", route: "/panier" });
  });

  it("keeps the request's id across awaits of the same request", async () => {
    const { log, entries } = capture();
    await requestContext.run({ id: "req-7" }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.info("après une attente");
    });
    expect(entries()[0]).toMatchObject({ reqId: "req-7" });
  });

  it("masks personal fields of any object logged, and email addresses in messages and errors", () => {
    const { log, lines } = capture();
    log.info(
      { order: { id: 12, customerEmail: "lea@example.fr", shippingAddress: "12 rue des Lilas", token: "tok_secret" } },
      "Commande 12",
    );
    log.info({ email: "lea@example.fr", password: "motdepasse-1" }, "Connexion");
    log.warn("Envoi refusé pour lea@example.fr : boîte pleine");
    const smtp = Object.assign(new Error("550 5.1.1 <lea@example.fr>: Recipient address rejected"), {
      response: "550 5.1.1 <lea@example.fr>: Recipient address rejected",
      rejected: ["lea@example.fr"],
    });
    log.error(smtp);
    log.error({ err: smtp }, "Email sender round failed");
    const all = lines.join("\n");
    expect(all).not.toContain("lea@example.fr");
    expect(all).not.toContain("12 rue des Lilas");
    expect(all).not.toContain("tok_secret");
    expect(all).not.toContain("motdepasse-1");
    // What is not personal stays readable.
    expect(all).toContain('"id":12');
    expect(all).toContain("Recipient address rejected");
    expect(all).toContain("Envoi refusé pour [adresse masquée] : boîte pleine");
  });

  it("masks the values of a failed query, which may be an order's address", () => {
    const { log, lines } = capture();
    const failed = Object.assign(
      new Error(
        'Failed query: insert into "orders" ("email", "address") values (?, ?)\nparams: camille@example.fr,12 rue des Lilas',
      ),
      { query: 'insert into "orders" ("email", "address") values (?, ?)', params: ["camille@example.fr", "12 rue des Lilas"] },
    );
    log.error(failed);
    const all = lines.join("\n");
    expect(all).not.toContain("12 rue des Lilas");
    expect(all).not.toContain("camille@example.fr");
    expect(all).toContain('insert into \\"orders\\"');
  });

  it("gives readable lines with LOG_FORMAT=pretty", () => {
    const line = prettyLine(
      JSON.stringify({ level: "info", time: "2026-03-01T10:04:31.250Z", pid: 1, reqId: "abc", msg: "GET / 200 1.2 ms" }),
    );
    expect(line).toBe("10:04:31.250 INFO  GET / 200 1.2 ms  reqId=abc\n");
  });
});
