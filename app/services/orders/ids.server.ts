import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { orders } from "~/db/schema";

/** Random, non-sequential 9-digit order number, so one number tells nothing about another. */
export async function newOrderId(db: DbOrTx): Promise<number> {
  for (;;) {
    const id = randomInt(100_000_000, 1_000_000_000);
    if (!(await db.select({ id: orders.id }).from(orders).where(eq(orders.id, id)).limit(1))[0]) return id;
  }
}
