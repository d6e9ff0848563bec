import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync } from "node:fs";
import path from "node:path";
import pino, { type DestinationStream, type Logger } from "pino";

/**
 * The shop's log: one JSON line per event (pino), with its time, level and message, and in
 * every line written while a request is served, that request's id (`reqId`, the X-Request-Id
 * the server gives it: server/request-id.js). Info and debug lines go to stdout, warnings and
 * errors to stderr.
 *
 * - LOG_FORMAT=pretty: readable lines instead (`12:04:31.250 INFO  message  key=value`), for
 *   development; the same fields.
 * - LOG_LEVEL: the lowest level written (info by default; silent under the unit tests).
 *
 * No personal data: the fields that carry some (email, names, address, telephone, tokens,
 * passwords, card, cookies) are masked wherever they appear in an object logged, and an email
 * address in a message or an error (an SMTP server's refusal names its recipient) is masked too,
 * and so are the values of a failed query (drizzle puts them in its error).
 */

export type RequestContext = { id: string };

/** The request being served, for its log lines: server/app.js runs each request inside it. */
export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The fields masked in any object logged, at its top or one level down. */
const PERSONAL_FIELDS = [
  "email",
  "customerEmail",
  "toAddress",
  "to",
  "name",
  "customerName",
  "firstName",
  "lastName",
  "shippingAddress",
  "address",
  "phone",
  "telephone",
  "password",
  "token",
  "card",
  "cookie",
  "authorization",
  "clientSecret",
  // A failed query's values (drizzle's errors): an order's email and address among them.
  "params",
];
const MASK = "[masqué]";
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
/** The values drizzle appends to a failed query's message. */
const QUERY_PARAMS = /\nparams: [^\n]*/g;

/** The text without its email addresses, nor a failed query's values. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, "[adresse masquée]").replace(QUERY_PARAMS, `\nparams: ${MASK}`);
}

/** A value with every email address in its strings masked (errors' fields: SMTP's `response`, `rejected`…). */
function maskDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return maskEmails(value);
  if (depth > 3 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, depth + 1));
  const masked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value))
    masked[key] = PERSONAL_FIELDS.includes(key) ? MASK : maskDeep(field, depth + 1);
  return masked;
}

const LEVEL_NAMES: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };

/** One JSON line of pino as a readable line (LOG_FORMAT=pretty). */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { time, level, msg, pid: _pid, err, ...fields } = entry;
  const clock = typeof time === "string" ? time.slice(11, 23) : "";
  const name = typeof level === "string" ? level.toUpperCase() : (LEVEL_NAMES[Number(level)] ?? String(level));
  const extra = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  const stack = err && typeof err === "object" && "stack" in err ? `\n${String((err as { stack: unknown }).stack)}` : "";
  return `${clock} ${name.padEnd(5)} ${String(msg ?? "")}${extra ? `  ${extra}` : ""}${stack}\n`;
}

function prettyStream(fd: 1 | 2): DestinationStream {
  const destination = pino.destination({ dest: fd, sync: true });
  return { write: (line: string) => void destination.write(prettyLine(line)) };
}

function defaultLevel() {
  if (process.env.LOG_LEVEL) return process.env.LOG_LEVEL;
  return process.env.VITEST ? "silent" : "info";
}

/** A logger writing to `streams` (by default stdout, and stderr from warnings on) with the shop's rules. */
export function createLogger(options: { pretty?: boolean; level?: string; destination?: DestinationStream } = {}): Logger {
  // LOG_FORMAT and LOG_LEVEL may come from .env, read here before the configuration reads it (config.server.ts).
  const dotEnv = path.resolve(process.cwd(), ".env");
  if (existsSync(dotEnv)) process.loadEnvFile(dotEnv);
  const pretty = options.pretty ?? process.env.LOG_FORMAT === "pretty";
  const stream = (fd: 1 | 2) => (pretty ? prettyStream(fd) : pino.destination({ dest: fd, sync: true }));
  const destination =
    options.destination ??
    pino.multistream(
      [
        { level: "trace", stream: stream(1) },
        { level: "warn", stream: stream(2) },
      ],
      { dedupe: true },
    );
  return pino(
    {
      level: options.level ?? defaultLevel(),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const request = requestContext.getStore();
        return request ? { reqId: request.id } : {};
      },
      redact: { paths: [...PERSONAL_FIELDS, ...PERSONAL_FIELDS.map((field) => `*.${field}`)], censor: MASK },
      serializers: {
        err: (error: Error) => maskDeep(pino.stdSerializers.err(error)),
      },
      hooks: {
        logMethod(args, method) {
          // An error passed alone (`log.error(error)`): its message, masked, is the line's message.
          const [first] = args;
          if (first instanceof Error && args.length === 1) {
            return method.apply(this, [{ err: first }, maskEmails(first.message)] as unknown as typeof args);
          }
          const masked = args.map((arg) => (typeof arg === "string" ? maskEmails(arg) : arg)) as typeof args;
          return method.apply(this, masked);
        },
      },
    },
    destination,
  );
}

declare global {
  // One logger per process (the dev server reloads modules).
  var __shopLogger: Logger | undefined;
}

/** The process's logger. */
export const log: Logger = (globalThis.__shopLogger ??= createLogger());
