import type { WithdrawalUrgency } from "~/lib/withdrawal-deadline";
import { Badge, type Tone } from "./ui";

const TONE: Record<WithdrawalUrgency, Tone> = { ok: "gray", soon: "yellow", overdue: "red" };

/** The days left before a withdrawal's refund deadline: amber from 3 days left, red once past. */
export function WithdrawalDeadlineBadge({ urgency, label }: { urgency: WithdrawalUrgency; label: string }) {
  return (
    <span data-urgency={urgency} data-testid="withdrawal-deadline">
      <Badge tone={TONE[urgency]}>{label}</Badge>
    </span>
  );
}
