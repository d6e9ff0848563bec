import { useFetcher } from "@remix-run/react";
import type { ContactStatus } from "~/db/schema";
import { CONTACT_STATUS_LABELS } from "~/lib/statuses";
import { useHydrated } from "./ui";

/** non_lu red, lu blue, en_cours yellow, traite green (spec section 4). */
const TONES: Record<ContactStatus, string> = {
  non_lu: "border-red-300 bg-red-50 text-red-800",
  lu: "border-sky-300 bg-sky-50 text-sky-800",
  en_cours: "border-amber-300 bg-amber-50 text-amber-900",
  traite: "border-emerald-300 bg-emerald-50 text-emerald-800",
};

const STATUSES = Object.keys(CONTACT_STATUS_LABELS) as ContactStatus[];

/**
 * A small form per request: with JavaScript the dropdown submits itself when it changes;
 * without, a button next to it submits the form.
 */
export function ContactStatusSelect({
  id,
  status,
  name,
  redirectTo,
  idPrefix = "status",
}: {
  id: number;
  status: ContactStatus;
  name: string;
  redirectTo: string;
  idPrefix?: string;
}) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const pending = fetcher.formData?.get("status");
  const current = (typeof pending === "string" && pending in CONTACT_STATUS_LABELS ? pending : status) as ContactStatus;
  const selectId = `${idPrefix}-${id}`;
  return (
    <fetcher.Form method="post" action="/admin/contacts" className="flex items-center gap-2" preventScrollReset>
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label htmlFor={selectId} className="sr-only">
        Statut de la demande de {name}
      </label>
      <select
        id={selectId}
        name="status"
        value={current}
        onChange={(event) => fetcher.submit(event.currentTarget.form, { preventScrollReset: true })}
        className={`w-[130px] rounded-lg border px-2 py-1.5 text-sm font-medium focus:outline-none focus:ring-2 focus:ring-rose-200 ${TONES[current]}`}
        disabled={fetcher.state !== "idle"}
      >
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {CONTACT_STATUS_LABELS[s]}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button
          type="submit"
          className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-semibold hover:bg-slate-50"
        >
          Modifier
        </button>
      )}
    </fetcher.Form>
  );
}
