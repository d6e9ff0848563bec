import type { ShopContact } from "~/lib/company";

export function phoneHref(phone: string) {
  return `tel:${phone.replace(/[^+0-9]/g, "")}`;
}

/** The company's postal address, email and phone, as edited by the administrators in the site settings. */
export function CompanyContact({
  settings,
  company,
}: {
  settings: Pick<ShopContact, "siteName" | "siteEmail" | "siteAddress" | "sitePhone">;
  company?: string;
}) {
  return (
    <address
      className="mt-3 rounded-xl bg-white p-4 not-italic leading-relaxed text-ink-soft ring-1 ring-ink/5"
      data-testid="company-contact"
    >
      <span className="block font-semibold text-ink">{company ?? settings.siteName}</span>
      <span className="block whitespace-pre-line">{settings.siteAddress}</span>
      <span className="mt-2 block">
        Email :{" "}
        <a className="text-ink underline" href={`mailto:${settings.siteEmail}`}>
          {settings.siteEmail}
        </a>
      </span>
      <span className="block">
        Téléphone :{" "}
        <a className="text-ink underline" href={phoneHref(settings.sitePhone)}>
          {settings.sitePhone}
        </a>
      </span>
    </address>
  );
}
