import { Form, useLocation, useNavigation } from "@remix-run/react";
import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import {
  INTERVAL_WEEKS,
  PAUSE_CYCLES,
  SUBSCRIPTION_ACTION_BUTTONS as BUTTONS,
  type SubscriptionAction,
} from "~/lib/subscription-actions";

/**
 * The subscriber's own changes on /mon-abonnement: skip the next delivery (and undo it), pause
 * for 1 to 3 cycles (and resume now), change pack, reactivate a planned cancellation. Each one
 * is a plain form posting to the page (intent + fields): it works without JavaScript.
 */

export type SelfServiceActionsView = {
  intervalWeeks: number;
  pause: { kind: "skip" | "pause"; skippedRenewalAt: string | null; resumesOn: string | null } | null;
  nextChargeAt: string | null;
  packs: { id: number; name: string; priceCents: number; current: boolean }[];
  canSkip: boolean;
  canUndoSkip: boolean;
  canPause: boolean;
  canResume: boolean;
  canChangePack: boolean;
  canChangeFrequency: boolean;
  canReactivate: boolean;
};

export const SELF_SERVICE_ANCHOR = "modifier";

function useBusy(intent: SubscriptionAction) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

function ActionForm({
  intent,
  children,
  className,
}: {
  intent: SubscriptionAction;
  children?: React.ReactNode;
  className?: string;
}) {
  const location = useLocation();
  const busy = useBusy(intent);
  return (
    <Form method="post" action={`${location.pathname}${location.search}`} className={className}>
      <input type="hidden" name="intent" value={intent} />
      {children}
      <button type="submit" className="btn-secondary mt-3 w-full sm:w-auto" disabled={busy}>
        {busy ? "Enregistrement..." : BUTTONS[intent]}
      </button>
    </Form>
  );
}

export function SelfServiceActions({ view, amountCents }: { view: SelfServiceActionsView; amountCents: number }) {
  const anyAction =
    view.canSkip ||
    view.canUndoSkip ||
    view.canPause ||
    view.canResume ||
    view.canChangePack ||
    view.canChangeFrequency ||
    view.canReactivate;
  if (!anyAction && !view.pause) return null;
  return (
    <section
      id={SELF_SERVICE_ANCHOR}
      aria-labelledby="modifier-titre"
      className="scroll-mt-24 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5"
      data-testid="subscription-actions"
    >
      <h2 id="modifier-titre" className="font-serif text-xl">
        Adapter mon abonnement
      </h2>

      {view.canReactivate ? (
        <div className="mt-4 rounded-xl bg-sage-100 p-4">
          <p className="text-sage-700">
            Vous avez encore des masques ? Votre abonnement peut continuer : réactivez-le avant la fin de la période payée, sans
            nouveau prélèvement aujourd'hui.
          </p>
          <ActionForm intent="reactivate" />
        </div>
      ) : null}

      {view.pause ? (
        <div className="mt-4 rounded-xl bg-ink/5 p-4" role="status" data-testid="subscription-pause">
          {view.pause.kind === "skip" ? (
            <p>
              Prochaine livraison sautée : rien ne sera prélevé le {formatDate(view.pause.skippedRenewalAt)}. Prochain prélèvement
              le {formatDate(view.pause.resumesOn)} ({formatPrice(amountCents)}).
            </p>
          ) : (
            <p>
              Abonnement en pause jusqu'au {formatDate(view.pause.resumesOn)} : aucun prélèvement d'ici là. Reprise le{" "}
              {formatDate(view.pause.resumesOn)} ({formatPrice(amountCents)}).
            </p>
          )}
          {view.canUndoSkip ? <ActionForm intent="unskip" /> : null}
          {view.canResume ? <ActionForm intent="resume" /> : null}
        </div>
      ) : null}

      <div className="mt-2 divide-y divide-ink/5">
        {view.canSkip ? (
          <div className="py-4">
            <p className="text-ink-soft">
              Encore assez de masques ? La prochaine livraison n'est ni prélevée ni envoyée ; la suivante l'est. Vous pouvez
              annuler ce saut jusqu'à la veille du renouvellement.
            </p>
            <ActionForm intent="skip" />
          </div>
        ) : null}

        {view.canPause ? (
          <div className="py-4">
            <ActionForm intent="pause">
              <label htmlFor="pause-cycles" className="block text-ink-soft">
                Faire une pause de
              </label>
              <select id="pause-cycles" name="cycles" defaultValue="1" className="field-input mt-1 w-full sm:w-auto">
                {PAUSE_CYCLES.map((n) => (
                  <option key={n} value={n}>
                    {n === 1 ? `1 cycle (${view.intervalWeeks} semaines)` : `${n} cycles (${n * view.intervalWeeks} semaines)`}
                  </option>
                ))}
              </select>
            </ActionForm>
          </div>
        ) : null}

        {view.canChangePack ? (
          <div className="py-4">
            <ActionForm intent="change_pack">
              <fieldset>
                <legend className="text-ink-soft">
                  Changer de pack à partir du prochain renouvellement ({formatDate(view.nextChargeAt)}), à son prix actuel, sans
                  prorata :
                </legend>
                <div className="mt-2 space-y-2">
                  {view.packs.map((pack) => (
                    <label key={pack.id} className="flex items-center gap-2">
                      <input type="radio" name="packId" value={pack.id} defaultChecked={pack.current} required />
                      <span>
                        {pack.name} · {formatPrice(pack.priceCents)}
                        {pack.current ? " (pack actuel)" : ""}
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
            </ActionForm>
          </div>
        ) : null}

        {view.canChangeFrequency ? (
          <div className="py-4">
            <ActionForm intent="change_frequency">
              <label htmlFor="interval-weeks" className="block text-ink-soft">
                Recevoir un colis, à partir du prochain renouvellement ({formatDate(view.nextChargeAt)}),
              </label>
              <select
                id="interval-weeks"
                name="intervalWeeks"
                defaultValue={String(view.intervalWeeks)}
                className="field-input mt-1 w-full sm:w-auto"
              >
                {/* Short enough for the whole current choice to read in the select on a 390 px phone. */}
                {INTERVAL_WEEKS.map((weeks) => (
                  <option key={weeks} value={weeks}>
                    toutes les {weeks} semaines{weeks === view.intervalWeeks ? " (actuelle)" : ""}
                  </option>
                ))}
              </select>
            </ActionForm>
          </div>
        ) : null}
      </div>
    </section>
  );
}
