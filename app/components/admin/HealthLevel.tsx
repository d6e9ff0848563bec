import { Link } from "@remix-run/react";
import { Badge } from "./ui";

type Level = "green" | "amber" | "red";

const LABELS: Record<Level, string> = { green: "Vert · tout va bien", amber: "Orange · à surveiller", red: "Rouge · à traiter" };
const TONES = { green: "green", amber: "yellow", red: "red" } as const;

/** A health level in words and colour (the colour never carries the meaning alone). */
export function HealthLevelBadge({ level }: { level: Level }) {
  return <Badge tone={TONES[level]}>{LABELS[level]}</Badge>;
}

/** The dashboard's banner when an item of the health page is red. */
export function HealthAlert({ titles }: { titles: string[] }) {
  if (titles.length === 0) return null;
  return (
    <div
      role="alert"
      className="mb-6 rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-950 sm:p-5"
      data-testid="health-alert"
    >
      <p>
        <strong className="font-semibold">{`À traiter maintenant : ${titles.join(", ")}.`}</strong>
      </p>
      <p className="mt-3">
        <Link to="/admin/sante" className="font-medium underline underline-offset-2">
          Voir la santé de la boutique
        </Link>
      </p>
    </div>
  );
}
