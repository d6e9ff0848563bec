import { useRouteLoaderData } from "@remix-run/react";
import { addressOnOneLine, type LegalIdentity, urlLabel } from "~/lib/company";

type Mediator = Pick<LegalIdentity, "mediatorName" | "mediatorAddress" | "mediatorUrl">;

/**
 * The consumer mediator the shop belongs to (Code de la consommation L616-1), from the settings:
 * one short line for the order pages, the legal notice and the tracking page. Nothing while the
 * settings name no mediator.
 */
export function MediatorNotice({ settings, className }: { settings: Mediator; className?: string }) {
  if (!settings.mediatorName) return null;
  const address = addressOnOneLine(settings.mediatorAddress);
  return (
    <p className={className} data-testid="mediator-notice">
      En cas de litige, vous pouvez recourir gratuitement au médiateur de la consommation : {settings.mediatorName}
      {address ? `, ${address}` : ""}
      {settings.mediatorUrl ? (
        <>
          ,{" "}
          <a href={settings.mediatorUrl} className="underline underline-offset-2" rel="noopener noreferrer">
            {urlLabel(settings.mediatorUrl)}
          </a>
        </>
      ) : null}
      .
    </p>
  );
}

/** The same line, from the site settings the root loader sends to every page. */
export function ShopMediatorNotice({ className }: { className?: string }) {
  const settings = useRouteLoaderData<{ settings?: Mediator }>("root")?.settings;
  return settings ? <MediatorNotice settings={settings} className={className} /> : null;
}
