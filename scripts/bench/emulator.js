// @ts-check
// The demo's Stripe emulator in a process of its own, for the write benches: its work (payment
// intents, signatures, webhook deliveries) is not counted as the shop's. With several shop
// servers, its webhooks go to them in turn, as a load balancer in front of them would send
// them; with one, straight to it.
// argv: a JSON { port, secretKey, webhookSecret, servers: string[] }; prints "ready" once it listens.
// Started with an IPC channel (fork), it answers the message "counts", once the webhooks queued
// so far have been delivered, with what it has done so far: { api: { "POST /v1/payment_intents": n, … }, webhooks: n, events: { type: n } }.
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "./shop.js";

const input = /** @type {{ port: number, secretKey: string, webhookSecret: string, servers: string[] }} */ (
  JSON.parse(process.argv[2] ?? "{}")
);

let webhookUrl = new URL("/api/stripe/webhook", input.servers[0]).href;
/** @type {http.Server | null} */
let balancer = null;
if (input.servers.length > 1) {
  // The webhooks' balancer: each delivery to the next server, the answer passed back.
  let turn = 0;
  const balancerPort = await freePort();
  const server = http.createServer((request, response) => {
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
  await new Promise((resolve) => server.listen(balancerPort, "127.0.0.1", () => resolve(undefined)));
  balancer = server;
  webhookUrl = `http://127.0.0.1:${balancerPort}/api/stripe/webhook`;
}

const emulatorModule = pathToFileURL(path.resolve(import.meta.dirname, "../../stripe-emulator/server.js")).href;
const { startStripeEmulator } = await import(emulatorModule);
// Subscribed to the events the shop handles, as its endpoint is at Stripe (and in demo mode).
const { HANDLED_WEBHOOK_EVENTS } = await import(
  pathToFileURL(path.resolve(import.meta.dirname, "../../app/services/payments/webhook-events.js")).href
);
const emulator = await startStripeEmulator({
  port: input.port,
  host: "127.0.0.1",
  secretKey: input.secretKey,
  publishableKey: "pk_test_emulator",
  webhookSecret: input.webhookSecret,
  webhookUrl,
  enabledEvents: HANDLED_WEBHOOK_EVENTS,
  // As Stripe does: several deliveries at once, not one after the other.
  webhookConcurrency: 16,
  log: { info: () => {}, warn: () => {} },
});

// What the emulator is asked, by method and path (object ids replaced by {id}).
/** @type {Record<string, number>} */
const api = {};
const core = /** @type {{ handle(request: { method: string, path: string }): unknown }} */ (emulator.core);
const handle = core.handle.bind(core);
core.handle = (/** @type {{ method: string, path: string }} */ request) => {
  const key = `${request.method} ${request.path.replace(/\/(?:[a-z]+_)+[A-Za-z0-9]{10,}(?=\/|$)/g, "/{id}")}`;
  api[key] = (api[key] ?? 0) + 1;
  return handle(request);
};

process.on("message", async (message) => {
  if (message !== "counts") return;
  // Once every webhook queued so far has been delivered: its cost is the purchases' that caused it.
  await emulator.flushWebhooks();
  /** @type {Record<string, number>} */
  const events = {};
  let webhooks = 0;
  for (const event of /** @type {{ type: string, _deliveries?: unknown[] }[]} */ (emulator.events)) {
    events[event.type] = (events[event.type] ?? 0) + 1;
    webhooks += event._deliveries?.length ?? 0;
  }
  process.send?.({ counts: { api: { ...api }, webhooks, events } });
});
process.on("SIGTERM", async () => {
  await emulator.close();
  balancer?.close();
  process.exit(0);
});
console.log("ready");
