import { CANCEL_REASONS, CANCEL_REASON_LABELS } from "~/lib/cancel-reasons";

/**
 * « Pourquoi résiliez-vous ? », optional on every cancellation form: its first choice sends
 * nothing, and cancelling never waits for an answer.
 */
export function CancelReasonSelect({ id, className = "" }: { id: string; className?: string }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        Pourquoi résiliez-vous ? <span className="font-normal text-ink-soft">(facultatif)</span>
      </label>
      <select id={id} name="reason" defaultValue="" className="field-input mt-1">
        <option value="">Je préfère ne pas répondre</option>
        {CANCEL_REASONS.map((reason) => (
          <option key={reason} value={reason}>
            {CANCEL_REASON_LABELS[reason]}
          </option>
        ))}
      </select>
    </div>
  );
}
