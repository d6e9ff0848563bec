import { afterAll, beforeAll } from "vitest";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { startTestEmulator, stopTestEmulator, webhookDelivery } from "./payments-fixtures";

/**
 * The test emulator for this file's tests: started before them, stopped after. `emulator()` is
 * its handle (once started); `withWebhooks(run)` delivers its webhooks to the route during `run`.
 */
export function setUpTestEmulator() {
  let handle: StripeEmulatorHandle | undefined;
  beforeAll(async () => {
    handle = await startTestEmulator();
  });
  afterAll(async () => {
    await stopTestEmulator();
  });
  const emulator = () => {
    if (!handle) throw new Error("The test emulator is not started yet.");
    return handle;
  };
  return { emulator, withWebhooks: webhookDelivery(emulator) };
}
