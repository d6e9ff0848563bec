// @ts-check
// The ceiling of the speed measures, in its own process: a bare node:http server answering
// each measured path with the bytes the shop sent for it (status, type, encoding, body), with
// no work at all. The parent sends { responses: { [path]: { status, headers, body (base64) } } }
// and gets back { port }.
import http from "node:http";
import { serveParent } from "./http.js";

/** @typedef {{ status: number, headers: Record<string, string>, body: string }} StoredResponse */

serveParent(
  /** @param {{ responses: Record<string, StoredResponse> }} input */
  async ({ responses }) => {
    const table = new Map(
      Object.entries(responses).map(([p, r]) => [
        p,
        { status: r.status, headers: r.headers, body: Buffer.from(r.body, "base64") },
      ]),
    );
    const server = http.createServer((req, res) => {
      const found = table.get(req.url ?? "");
      if (!found) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(found.status, { ...found.headers, "content-length": String(found.body.length) });
      res.end(found.body);
    });
    server.keepAliveTimeout = 30_000;
    await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
    process.once("SIGTERM", () => process.exit(0));
    const address = server.address();
    return { port: typeof address === "object" && address ? address.port : 0 };
  },
);
