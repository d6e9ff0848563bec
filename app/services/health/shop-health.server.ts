import { and, count, eq, gte, inArray, isNotNull, max, min } from "drizzle-orm";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { DEMO_LEGAL_IDENTITY } from "~/db/seed.server";
import { emails, rateLimits, stripeEvents, subscriptions } from "~/db/schema";
import { formatDateTime } from "~/lib/dates";
import { backupEveryHours, lastBackup } from "~/services/backups/status.server";
import { missingLegalMentions } from "~/services/legal-mentions.server";
import { REFUSING_LIMITS } from "~/services/limits.server";
import { unprocessedWebhookFailures } from "~/services/observability/metrics.server";
import { getSettings } from "~/services/settings.server";
import {
  backupLevel,
  emailLevel,
  modeLevel,
  rateLimitLevel,
  renewalLevel,
  webhookLevel,
  worstLevel,
  type Level,
} from "./rules.server";

/**
 * The owner's health page (/admin/sante): one item per thing that can silently go wrong, each
 * with its colour (rules.server.ts) and what it says in plain French.
 */

export type HealthItem = {
  key: "backup" | "emails" | "webhooks" | "renewals" | "rate-limits" | "mode";
  title: string;
  level: Level;
  /** One sentence: what is wrong, or that all is well. */
  summary: string;
  /** The figures behind it. */
  details: string[];
  link?: { to: string; label: string };
};

export type ShopHealth = { level: Level; items: HealthItem[] };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** "3 min", "2 h 5 min", "4 j 3 h". */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} j ${hours % 24} h` : `${days} j`;
}

/** "512 o", "3,4 Ko", "12,5 Mo". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} o`;
  const units = ["Ko", "Mo", "Go"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString("fr-FR", { maximumFractionDigits: 1 })} ${units[unit]}`;
}

function plural(n: number, word: string, words = `${word}s`) {
  return `${n} ${n > 1 ? words : word}`;
}

async function backupItem(now: Date): Promise<HealthItem> {
  const last = await lastBackup();
  const every = backupEveryHours();
  const age = last ? now.getTime() - last.at.getTime() : null;
  const level = backupLevel(age, every);
  const schedule =
    every > 0
      ? `Une sauvegarde automatique est prévue toutes les ${plural(every, "heure")}.`
      : "Les sauvegardes automatiques sont désactivées (BACKUP_EVERY=0).";
  const summary = !last
    ? "Aucune sauvegarde de la base de données."
    : level === "red"
      ? `La dernière sauvegarde date de ${formatDuration(age!)} : c'est plus du double de l'intervalle prévu.`
      : level === "amber" && every > 0
        ? `La dernière sauvegarde date de ${formatDuration(age!)} : la suivante est en retard.`
        : `Dernière sauvegarde il y a ${formatDuration(age!)}.`;
  return {
    key: "backup",
    title: "Sauvegarde",
    level,
    summary,
    details: [
      schedule,
      ...(last
        ? [`Date : ${formatDateTime(last.at)}`, `Taille : ${formatSize(last.sizeBytes)}`, `Empreinte SHA-256 : ${last.sha256}`]
        : []),
    ],
  };
}

async function emailItem(now: Date): Promise<HealthItem> {
  const db = getDb();
  const [waiting] = await db
    .select({ oldest: min(emails.createdAt), n: count() })
    .from(emails)
    .where(inArray(emails.status, ["pending", "sending"]));
  const [failed] = await db
    .select({ n: count() })
    .from(emails)
    .where(and(isNotNull(emails.lastError), gte(emails.updatedAt, new Date(now.getTime() - DAY).toISOString())));
  const oldest = waiting?.oldest ? Date.parse(String(waiting.oldest)) : NaN;
  const waitMs = Number.isNaN(oldest) ? null : Math.max(0, now.getTime() - oldest);
  const failures = Number(failed?.n ?? 0);
  const waitingCount = Number(waiting?.n ?? 0);
  const level = emailLevel(waitMs, failures);
  const summary =
    level === "green"
      ? "Les emails partent normalement."
      : failures > 0
        ? `Des emails n'ont pas pu partir : ${plural(failures, "échec")} d'envoi en 24 h.`
        : `Un email attend depuis ${formatDuration(waitMs ?? 0)}.`;
  return {
    key: "emails",
    title: "Emails",
    level,
    summary,
    details: [
      waitingCount === 0
        ? "Aucun email en attente."
        : `${plural(waitingCount, "email")} en attente, le plus ancien depuis ${formatDuration(waitMs ?? 0)}.`,
      failures === 0 ? "Aucun échec d'envoi en 24 h." : `${plural(failures, "email")} en échec d'envoi en 24 h.`,
    ],
    link: { to: "/admin/emails", label: "Voir les emails" },
  };
}

async function webhookItem(now: Date): Promise<HealthItem> {
  const [last] = await getDb()
    .select({ at: max(stripeEvents.receivedAt) })
    .from(stripeEvents);
  const failures = await unprocessedWebhookFailures(now.getTime());
  const failureAge = failures.oldestAt ? now.getTime() - failures.oldestAt.getTime() : null;
  const level = webhookLevel(failures.count, failureAge);
  return {
    key: "webhooks",
    title: "Notifications de paiement (webhooks Stripe)",
    level,
    summary:
      failures.count === 0
        ? "Les notifications de paiement sont traitées."
        : `${plural(failures.count, "notification")} de paiement en échec, la plus ancienne depuis ${formatDuration(failureAge ?? 0)}.`,
    details: [
      last?.at
        ? `Dernière notification traitée : ${formatDateTime(String(last.at))}`
        : "Aucune notification reçue pour l'instant.",
      "Les échecs sont ceux de ce processus depuis son démarrage ; Stripe renvoie une notification en échec pendant 3 jours.",
    ],
  };
}

async function renewalItem(now: Date): Promise<HealthItem> {
  const [row] = await getDb()
    .select({ n: count() })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, "past_due"),
        isNotNull(subscriptions.unpaidInvoiceId),
        gte(subscriptions.updatedAt, new Date(now.getTime() - 7 * DAY).toISOString()),
      ),
    );
  const failed = Number(row?.n ?? 0);
  return {
    key: "renewals",
    title: "Renouvellements d'abonnement",
    level: renewalLevel(failed),
    summary:
      failed === 0
        ? "Aucun renouvellement en échec ces 7 derniers jours."
        : `${plural(failed, "renouvellement")} en échec de paiement ces 7 derniers jours, encore impayé${failed > 1 ? "s" : ""}.`,
    details: ["Le client reçoit un email avec un lien pour payer ; Stripe réessaie le paiement de lui-même."],
    link: { to: "/admin/subscriptions", label: "Voir les abonnements" },
  };
}

async function rateLimitItem(now: Date): Promise<HealthItem> {
  const rows = await getDb()
    .select({ key: rateLimits.key, count: rateLimits.count })
    .from(rateLimits)
    .where(gte(rateLimits.lastHitAt, now.getTime() - HOUR));
  const atLimit = new Set<string>();
  for (const row of rows) {
    const name = row.key.slice(0, row.key.indexOf(":"));
    const limit = REFUSING_LIMITS[name];
    if (limit !== undefined && row.count >= limit) atLimit.add(row.key);
  }
  const n = atLimit.size;
  return {
    key: "rate-limits",
    title: "Limites anti-abus",
    level: rateLimitLevel(n),
    summary:
      n === 0
        ? "Aucune adresse n'a atteint une limite dans la dernière heure."
        : `${plural(n, "adresse a", "adresses ont")} atteint une limite dans la dernière heure : leurs demandes suivantes sont refusées un moment.`,
    details: [
      "Compté d'après les compteurs en base (tentatives de connexion, formulaires, commandes, paniers). Le nombre exact de refus de chaque processus est dans /metrics.",
    ],
  };
}

async function modeItem(): Promise<HealthItem> {
  const mode = getConfig().mode;
  const settings = await getSettings();
  const missing = missingLegalMentions(settings);
  const demoCompany = settings.legalName === DEMO_LEGAL_IDENTITY.legalName || settings.siret === DEMO_LEGAL_IDENTITY.siret;
  const level = modeLevel(mode, missing.length, demoCompany);
  return {
    key: "mode",
    title: "Mode et mentions légales",
    level,
    summary:
      mode === "demo"
        ? "Mode démonstration : les paiements ne sont pas réels."
        : level === "green"
          ? "Boutique en production, mentions légales complètes."
          : "Boutique en production avec des mentions légales incomplètes.",
    details: [
      missing.length === 0 ? "Toutes les mentions obligatoires sont remplies." : `Mentions manquantes : ${missing.join(", ")}.`,
      ...(demoCompany ? ["L'identité de la société est encore celle de la boutique de démonstration."] : []),
    ],
    link: { to: "/admin/settings", label: "Paramètres du site" },
  };
}

/** Every item of the health page, and the worst of their levels. */
export async function shopHealth(now = new Date()): Promise<ShopHealth> {
  const items = [
    await backupItem(now),
    await emailItem(now),
    await webhookItem(now),
    await renewalItem(now),
    await rateLimitItem(now),
    await modeItem(),
  ];
  return { level: worstLevel(items.map((item) => item.level)), items };
}
