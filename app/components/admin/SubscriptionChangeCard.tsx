import { Form, useNavigation } from "@remix-run/react";
import { buttonSecondary, Card } from "~/components/admin/ui";
import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { INTERVAL_WEEKS, PAUSE_CYCLES, SUBSCRIPTION_ACTION_BUTTONS as BUTTONS } from "~/lib/subscription-actions";
import type { SelfServiceActionsView } from "~/components/subscription/SelfServiceActions";

/**
 * The subscriber's changes made by the shop (/admin/subscriptions/{id}): one form, a required
 * reason written in the history, one button per change (its name and value say which one).
 * Works without JavaScript.
 */
export function SubscriptionChangeCard({ view }: { view: SelfServiceActionsView }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const any =
    view.canSkip ||
    view.canUndoSkip ||
    view.canPause ||
    view.canResume ||
    view.canChangePack ||
    view.canChangeFrequency ||
    view.canReactivate;
  if (!any) return null;
  const button = `${buttonSecondary} w-full`;
  return (
    <Card title="Modifier pour le client">
      <Form method="post" className="space-y-3" data-testid="admin-subscription-changes">
        {view.pause ? (
          <p className="text-sm" role="status">
            {view.pause.kind === "skip"
              ? `Livraison du ${formatDate(view.pause.skippedRenewalAt)} sautée ; reprise le ${formatDate(view.pause.resumesOn)}.`
              : `En pause jusqu'au ${formatDate(view.pause.resumesOn)}.`}
          </p>
        ) : null}
        <div>
          <label htmlFor="change-reason" className="block text-sm font-medium">
            Raison (écrite dans l'historique)
          </label>
          <textarea
            id="change-reason"
            name="reason"
            rows={2}
            required
            minLength={3}
            maxLength={500}
            className="field-input mt-1"
          />
        </div>
        {view.canSkip ? (
          <button type="submit" name="intent" value="skip" className={button} disabled={busy}>
            {BUTTONS.skip}
          </button>
        ) : null}
        {view.canUndoSkip ? (
          <button type="submit" name="intent" value="unskip" className={button} disabled={busy}>
            {BUTTONS.unskip}
          </button>
        ) : null}
        {view.canResume ? (
          <button type="submit" name="intent" value="resume" className={button} disabled={busy}>
            {BUTTONS.resume}
          </button>
        ) : null}
        {view.canPause ? (
          <div className="flex gap-2">
            <label htmlFor="admin-pause-cycles" className="sr-only">
              Durée de la pause
            </label>
            <select id="admin-pause-cycles" name="cycles" defaultValue="1" className="field-input">
              {PAUSE_CYCLES.map((n) => (
                <option key={n} value={n}>
                  {n} cycle{n > 1 ? "s" : ""}
                </option>
              ))}
            </select>
            <button type="submit" name="intent" value="pause" className={button} disabled={busy}>
              {BUTTONS.pause}
            </button>
          </div>
        ) : null}
        {view.canChangePack ? (
          <div className="flex gap-2">
            <label htmlFor="admin-pack" className="sr-only">
              Nouveau pack
            </label>
            <select id="admin-pack" name="packId" defaultValue={view.packs.find((p) => !p.current)?.id} className="field-input">
              {view.packs
                .filter((p) => !p.current)
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} · {formatPrice(p.priceCents)}
                  </option>
                ))}
            </select>
            <button type="submit" name="intent" value="change_pack" className={button} disabled={busy}>
              {BUTTONS.change_pack}
            </button>
          </div>
        ) : null}
        {view.canChangeFrequency ? (
          <div className="flex gap-2">
            <label htmlFor="admin-interval" className="sr-only">
              Nouvelle fréquence
            </label>
            <select
              id="admin-interval"
              name="intervalWeeks"
              defaultValue={INTERVAL_WEEKS.find((w) => w !== view.intervalWeeks)}
              className="field-input"
            >
              {INTERVAL_WEEKS.filter((w) => w !== view.intervalWeeks).map((w) => (
                <option key={w} value={w}>
                  Toutes les {w} semaines
                </option>
              ))}
            </select>
            <button type="submit" name="intent" value="change_frequency" className={button} disabled={busy}>
              {BUTTONS.change_frequency}
            </button>
          </div>
        ) : null}
        {view.canReactivate ? (
          <button type="submit" name="intent" value="reactivate" className={button} disabled={busy}>
            {BUTTONS.reactivate}
          </button>
        ) : null}
      </Form>
    </Card>
  );
}
