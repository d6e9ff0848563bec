import { CANCEL_SCHEDULED_LABEL, SUBSCRIPTION_STATUS_LABELS, type SubscriptionStatus } from "~/lib/subscription-status";
import { Badge, type Tone } from "./ui";

const TONES: Record<SubscriptionStatus, Tone> = {
  incomplete: "gray",
  active: "green",
  past_due: "red",
  canceled: "violet",
};

/** A subscription's status; "Résiliation prévue" beside it while a cancellation is planned at the end of the period. */
export function SubscriptionBadge({
  status,
  cancelAtPeriodEnd = false,
}: {
  status: SubscriptionStatus;
  cancelAtPeriodEnd?: boolean;
}) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      <Badge tone={TONES[status]}>{SUBSCRIPTION_STATUS_LABELS[status]}</Badge>
      {cancelAtPeriodEnd && status !== "canceled" ? <Badge tone="yellow">{CANCEL_SCHEDULED_LABEL}</Badge> : null}
    </span>
  );
}
