import type { WithdrawalRights } from "~/legal/withdrawal-rights";
import { TextLink } from "./static/TextLink";

/** What the right of withdrawal covers (legal/withdrawal-rights.ts): the same four points as the acknowledgement email. */
export function WithdrawalRightsSummary({ rights }: { rights: WithdrawalRights }) {
  return (
    <section
      aria-labelledby="droit-de-retractation"
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5"
      data-testid="withdrawal-rights"
    >
      <h2 id="droit-de-retractation" className="font-serif text-xl">
        Ce que couvre votre droit de rétractation
      </h2>
      <dl className="mt-4 space-y-3 text-sm leading-relaxed">
        {rights.points.map((point) => (
          <div key={point.title}>
            <dt className="font-semibold text-ink">{point.title}</dt>
            <dd className="text-ink-soft">{point.text}</dd>
          </div>
        ))}
        <div>
          <dt className="font-semibold text-ink">Adresse de retour</dt>
          <dd>
            <address className="not-italic text-ink-soft" data-testid="withdrawal-return-address">
              {rights.returnAddress.map((line, i) => (
                <span key={i} className="block">
                  {line}
                </span>
              ))}
            </address>
          </dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-ink-soft">
        Vous pouvez aussi utiliser le <TextLink to={rights.modelFormPath}>modèle de formulaire de rétractation</TextLink> de nos
        conditions générales de vente. La marche à suivre pour le retour est détaillée sur la page{" "}
        <TextLink to={rights.returnsPath}>Retours et remboursements</TextLink>.
      </p>
    </section>
  );
}
