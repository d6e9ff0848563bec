import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listen } from "../../server/app.js";

/**
 * The graceful close of the server entry (server/app.js), on a plain request listener: the
 * requests in flight are answered, idle keep-alive connections do not hold the close, and a
 * request that never ends is cut at the deadline.
 */

type Listening = Awaited<ReturnType<typeof listen>>;
const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => (s.server.listening ? s.close({ deadlineMs: 10 }) : undefined)));
});

async function serve(listener: http.RequestListener) {
  const server = await listen(listener, { host: "127.0.0.1", port: 0 });
  servers.push(server);
  return server;
}

/** A GET on its own keep-alive agent; resolves with the status, body and Connection header. */
function get(port: number, path: string, agent: http.Agent) {
  return new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      })
      .on("error", reject);
  });
}

function refused(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe("graceful close", () => {
  it("answers the request in flight, then closes; new connections are refused meanwhile", async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const { port, close } = await serve((req, res) => {
      if (req.url === "/slow") {
        arrived();
        setTimeout(() => res.end("fini"), 400);
      } else res.end("ok");
    });
    const agent = new http.Agent({ keepAlive: true });
    // An idle keep-alive connection must not hold the close.
    expect((await get(port, "/fast", agent)).body).toBe("ok");
    const slow = get(port, "/slow", new http.Agent({ keepAlive: true }));
    await inFlight;

    const started = Date.now();
    const closing = close({ deadlineMs: 5_000 });
    expect(await refused(port)).toBe(true);
    expect(await slow).toMatchObject({ status: 200, body: "fini" });
    expect(await closing).toEqual({ forced: false });
    expect(Date.now() - started).toBeLessThan(2_000);
    agent.destroy();
  });

  it("cuts the connections still open at the deadline", async () => {
    const { port, close } = await serve(() => {
      // Never answers.
    });
    const hanging = get(port, "/forever", new http.Agent({ keepAlive: true })).catch((error: Error) => error);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    expect(await close({ deadlineMs: 300 })).toEqual({ forced: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await hanging).toBeInstanceOf(Error);
  });
});
