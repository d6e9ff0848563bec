import type { ServerResponse } from "node:http";
import { Writable } from "node:stream";
import { writeReadableStreamToWritable } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { writableWaiter } from "../../server/backpressure.js";
import { getDb } from "~/db/client.server";
import { orders } from "~/db/schema";
import { loader as csvLoader } from "~/routes/admin.orders.export[.]csv";
import { PERIOD_MESSAGE } from "~/schemas/admin-order";
import { getRequest, routeArgs } from "../helpers/requests";
import { adminCookie } from "./admin-helpers";

const COUNT = 10_250;
const FIRST_ID = 700_000_000;
/** One order every hour from 1 January 2025 (UTC). */
const START = Date.UTC(2025, 0, 1, 12);
const HOUR = 3_600_000;

async function insertManyOrders() {
  const rows = Array.from({ length: COUNT }, (_, i) => ({
    id: FIRST_ID + i,
    subtotalCents: 2590,
    totalCents: 2590,
    paymentStatus: "paid" as const,
    customerEmail: `export-${i}@export.test`,
    customerName: "Client Export",
    createdAt: new Date(START + i * HOUR).toISOString(),
  }));
  for (let i = 0; i < rows.length; i += 500)
    await getDb()
      .insert(orders)
      .values(rows.slice(i, i + 500));
}

async function download(query: string) {
  const response = (await csvLoader(
    routeArgs(getRequest(`/admin/orders/export.csv${query}`, { Cookie: await adminCookie() })),
  )) as Response;
  const chunks: string[] = [];
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
      chunks.push(decoder.decode(chunk, { stream: true }));
  }
  const text = chunks.join("");
  return { response, chunks: chunks.length, text, lines: text.split("\r\n").filter(Boolean) };
}

const idsOf = (lines: string[]) => lines.slice(1).map((line) => Number(JSON.parse(line.split(";")[0])));

describe("CSV export of the orders", () => {
  it("streams every order, past 10,000, in pieces, newest first, and filters by period", async () => {
    await insertManyOrders();
    const all = await download("?q=%40export.test");
    expect(all.response.status).toBe(200);
    expect(all.response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    // The whole list: nothing cut at 10,000, nothing twice.
    expect(all.lines).toHaveLength(COUNT + 1);
    expect(all.lines[0].startsWith('\uFEFF"Commande";"Date"')).toBe(true);
    const ids = idsOf(all.lines);
    expect(new Set(ids).size).toBe(COUNT);
    expect(ids[0]).toBe(FIRST_ID + COUNT - 1);
    expect(ids[COUNT - 1]).toBe(FIRST_ID);
    // Sent as it is read, in many pieces, not as one string built first.
    expect(all.chunks).toBeGreaterThan(10);

    // A period of Paris days, both included: 2 January 2025 in Paris runs from 23:00 UTC on the 1st, 24 orders.
    const day = await download("?q=%40export.test&du=2025-01-02&au=2025-01-02");
    const dayIds = idsOf(day.lines);
    expect(dayIds).toHaveLength(24);
    for (const id of dayIds) {
      const created = START + (id - FIRST_ID) * HOUR;
      expect(created).toBeGreaterThanOrEqual(Date.UTC(2025, 0, 1, 23));
      expect(created).toBeLessThan(Date.UTC(2025, 0, 2, 23));
    }
    // From a day onwards only.
    const since = await download(`?q=%40export.test&du=${new Date(START + (COUNT - 30) * HOUR).toISOString().slice(0, 10)}`);
    expect(idsOf(since.lines).length).toBeGreaterThan(0);
    expect(idsOf(since.lines).length).toBeLessThan(60);
  });

  it("waits for a slow client: nothing more is read while the answer's buffer is full", async () => {
    // A client that takes nothing until told to: writes are held, the buffer fills past 16 kB.
    const held: (() => void)[] = [];
    let taking = false;
    let received = 0;
    const client = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (taking) done();
        else held.push(() => done());
      },
    });
    // What the server's adapter does with each loader's answer (server/app.js), with its load context.
    const written = () => client.writableLength + received;
    const response = (await csvLoader(
      routeArgs(
        getRequest("/admin/orders/export.csv?q=%40export.test", { Cookie: await adminCookie() }),
        {},
        {
          untilWritable: writableWaiter(client as unknown as ServerResponse),
        },
      ),
    )) as Response;
    const sending = writeReadableStreamToWritable(response.body!, client);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The first 64 kB piece filled the buffer: the export waits instead of reading the 10,250 orders.
    const whileFull = written();
    expect(whileFull).toBeLessThan(200 * 1024);
    taking = true;
    for (const done of held.splice(0)) done();
    await sending;
    // Once the client reads, the rest follows: the whole file (about 2 MB).
    expect(written()).toBeGreaterThan(1024 * 1024);
    expect(written()).toBeGreaterThan(10 * whileFull);
  });

  it("keeps up with a client that is always a little slow, with one listener of each kind for the whole file", async () => {
    // Each piece taken a moment after it was written: the 16 kB buffer is full after every 64 kB piece.
    const client = new Writable({
      highWaterMark: 16 * 1024,
      write(_chunk: Buffer, _encoding, done) {
        setTimeout(done, 1);
      },
    });
    let drains = 0;
    let mostCloseListeners = 0;
    client.on("drain", () => {
      drains++;
      mostCloseListeners = Math.max(mostCloseListeners, client.listenerCount("close"));
    });
    const response = (await csvLoader(
      routeArgs(
        getRequest("/admin/orders/export.csv?q=%40export.test", { Cookie: await adminCookie() }),
        {},
        { untilWritable: writableWaiter(client as unknown as ServerResponse) },
      ),
    )) as Response;
    await writeReadableStreamToWritable(response.body!, client);
    // The export waited at each piece (about 30 for 2 MB)…
    expect(drains).toBeGreaterThan(10);
    // …with the same listener on the answer all along, not one more at each wait.
    expect(mostCloseListeners).toBe(1);
  });

  it("refuses a period it cannot read, in French", async () => {
    for (const query of ["?du=2025-02-30", "?au=demain", "?du=2025-03-02&au=2025-03-01"]) {
      const { response, text } = await download(query);
      expect(response.status, query).toBe(400);
      expect(text).toBe(PERIOD_MESSAGE);
    }
  });
});
