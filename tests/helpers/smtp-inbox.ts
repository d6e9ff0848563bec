import net from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server inside the test process (smtp-server), on 127.0.0.1 and a port of its
 * own: the shop sends to it through nodemailer exactly as to a provider, and each message
 * received is parsed as a mail client would (mailparser).
 */
export type SmtpInbox = {
  url: string;
  port: number;
  /** Each message, parsed, in the order received: it is here before the sender hears it was accepted. */
  messages: ParsedMail[];
  /** The raw envelope recipients of each message, in order. */
  recipients: string[][];
  /** Resolves once `count` messages have arrived (fails after `ms`). */
  waitFor(count: number, ms?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
};

/** A free port on 127.0.0.1: nothing listens there once this resolves (a connection is refused). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startSmtpInbox(port = 0): Promise<SmtpInbox> {
  const messages: ParsedMail[] = [];
  const recipients: string[][] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push(parsed);
          recipients.push(session.envelope.rcptTo.map((r) => r.address));
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    messages,
    recipients,
    async waitFor(count, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`${messages.length} message(s) received, ${count} expected`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
