import { asResponses } from "../helpers/route-response";
import { describe, expect, it } from "vitest";
import { MAX_FORM_BYTES, readPageForm } from "~/http/page-form.server";
import { action as resiliationActionRoute } from "~/routes/abonnement.resilier";
import { action as contactActionRoute } from "~/routes/contact";
import { action as cartActionRoute } from "~/routes/panier";
import { formRequest, fromAddress, routeArgs } from "../helpers/requests";

const resiliationAction = asResponses(resiliationActionRoute);
const contactAction = asResponses(contactActionRoute);
const cartAction = asResponses(cartActionRoute);

/** What a page action answers, whether it returns or throws its Response. */
async function answer(run: () => Promise<unknown>): Promise<Response> {
  try {
    return (await run()) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** A urlencoded body of `total` bytes made of `chunk`-byte pieces, counting what the server reads. */
function hugeBody(total: number, chunk = 64 * 1024) {
  const read = { bytes: 0 };
  const piece = new TextEncoder().encode("a".repeat(chunk));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("message="));
    },
    pull(controller) {
      if (read.bytes >= total) return controller.close();
      read.bytes += piece.byteLength;
      controller.enqueue(piece);
    },
  });
  return { stream, read };
}

function streamingPost(url: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request(`http://localhost:3000${url}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost:3000", ...headers },
    duplex: "half",
  } as RequestInit);
}

const CONTACT = {
  name: "Camille Martin",
  email: "camille@example.fr",
  subject: "Question",
  message: "Bonjour, une question sur les masques.",
};

describe("page forms: a body limit before parsing", () => {
  it("refuses a 30 MB contact post with 413 after reading at most the limit and a chunk", async () => {
    const { stream, read } = hugeBody(30 * 1024 * 1024);
    const response = await answer(() =>
      contactAction(routeArgs(streamingPost("/contact", stream), {}, fromAddress("192.0.2.1"))),
    );
    expect(response.status).toBe(413);
    expect(await response.text()).toBe("Formulaire trop volumineux : raccourcissez vos messages et réessayez.");
    expect(read.bytes).toBeLessThanOrEqual(MAX_FORM_BYTES + 2 * 64 * 1024);
  });

  it("refuses a declared Content-Length over the limit without reading the body", async () => {
    const { stream, read } = hugeBody(30 * 1024 * 1024);
    const request = streamingPost("/contact", stream, { "Content-Length": String(30 * 1024 * 1024) });
    await expect(readPageForm(request)).rejects.toMatchObject({ status: 413 });
    expect(read.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it("reads a full-size contact message of 5,000 '€' (45 kB encoded)", async () => {
    const message = "€".repeat(5000);
    const form = await readPageForm(formRequest("/contact", { ...CONTACT, message }));
    expect(form.get("message")).toBe(message);
    expect(form.get("name")).toBe("Camille Martin");
  });

  it("refuses a multipart post with 415", async () => {
    const body = new FormData();
    body.set("name", "Camille");
    const request = new Request("http://localhost:3000/contact", {
      method: "POST",
      body,
      headers: { Origin: "http://localhost:3000" },
    });
    await expect(readPageForm(request)).rejects.toMatchObject({ status: 415 });
  });
});

describe("page forms: posted from our own pages only", () => {
  const foreign = { headers: { Origin: "https://evil.example" } };

  it("the contact form refuses another site's post (403)", async () => {
    const response = await answer(() =>
      contactAction(routeArgs(formRequest("/contact", CONTACT, foreign), {}, fromAddress("192.0.2.2"))),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toBe("Origine de la requête non autorisée");
  });

  it("the cart and the cancellation form refuse another site's post (403)", async () => {
    const cart = await answer(() => cartAction(routeArgs(formRequest("/panier", { intent: "add", packId: "2" }, foreign))));
    expect(cart.status).toBe(403);
    const cancel = await answer(() =>
      resiliationAction(
        routeArgs(
          formRequest("/abonnement/resilier", { orderNumber: "123456789", email: "a@example.fr" }, foreign),
          {},
          fromAddress("192.0.2.3"),
        ),
      ),
    );
    expect(cancel.status).toBe(403);
  });

  it("the contact form still takes a post from our own page", async () => {
    const response = await answer(() => contactAction(routeArgs(formRequest("/contact", CONTACT), {}, fromAddress("192.0.2.4"))));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { outcome: string }).outcome).toBe("success");
  });
});
