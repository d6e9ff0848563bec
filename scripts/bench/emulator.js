// @ts-check
// The demo's Stripe emulator in a process of its own, for the write benches: its work (payment
// intents, signatures, webhook deliveries) is not counted as the shop's. Its webhooks go to the
// shop servers in turn, as a load balancer in front of them would send them.
// argv: a JSON { port, secretKey, webhookSecret, servers: string[] }; prints "ready" once it listens.
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "./shop.js";

const input = /** @type {{ port: number, secretKey: string, webhookSecret: string, servers: string[] }} */ (
  JSON.parse(process.argv[2] ?? "{}")
);

// The webhooks' balancer: each delivery to the next server, the answer passed back.
let turn = 0;
const balancerPort = await freePort();
const balancer = http.createServer((request, response) => {
  const chunks = /** @type {Buffer[]} */ ([]);
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const target = new URL(request.url ?? "/", input.servers[turn++ % input.servers.length]);
    const upstream = http.request(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on("error", () => {
      if (!response.headersSent) response.writeHead(502).end();
    });
    upstream.end(Buffer.concat(chunks));
  });
});
await new Promise((resolve) => balancer.listen(balancerPort, "127.0.0.1", () => resolve(undefined)));

const emulatorModule = pathToFileURL(path.resolve(import.meta.dirname, "../../stripe-emulator/server.js")).href;
const { startStripeEmulator } = await import(emulatorModule);
const emulator = await startStripeEmulator({
  port: input.port,
  host: "127.0.0.1",
  secretKey: input.secretKey,
  publishableKey: "pk_test_emulator",
  webhookSecret: input.webhookSecret,
  webhookUrl: `http://127.0.0.1:${balancerPort}/api/stripe/webhook`,
  log: { info: () => {}, warn: () => {} },
});
process.on("SIGTERM", async () => {
  await emulator.close();
  balancer.close();
  process.exit(0);
});
console.log("ready");
