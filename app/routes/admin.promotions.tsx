import { getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DataTable, type TableDefinition } from "~/components/admin/DataTable";
import { Badge, buttonPrimary, buttonSecondary, buttonSmall, Card, PageHeader, selectClass } from "~/components/admin/ui";
import { Field, FieldError, type TextFieldMetadata } from "~/components/ui/Field";
import { requireAdmin } from "~/http/admin-guard.server";
import { queryId, requireAdminForm, submitAdminForm, unknownAction } from "~/http/admin-pages.server";
import { readPageForm } from "~/http/page-form.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { formatDate } from "~/lib/dates";
import { parseIdOrNull } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { PROMOTION_TARGET_LABELS, promotionValueLabel } from "~/lib/promotions";
import { promotionSchema } from "~/schemas/promotion";
import {
  createPromotion,
  listPromotions,
  promotionInput,
  savePromotion,
  setPromotionActive,
} from "~/services/promotions/admin.server";

export const meta: MetaFunction = () => pageMeta("Codes promo", "Les codes promo de la boutique.");

const parisDate = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Paris",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** An ISO instant as the form's date field shows it (the day in Paris); an end is the last day it is valid. */
function formDate(iso: string | null, end = false): string {
  if (!iso) return "";
  return parisDate.format(new Date(new Date(iso).getTime() - (end ? 1 : 0)));
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const promotions = await listPromotions();
  const editId = queryId(request, "edit");
  const editing = promotions.find((p) => p.id === editId) ?? null;
  return data(
    {
      promotions: promotions.map((p) => ({
        id: p.id,
        code: p.code,
        discount: promotionValueLabel(p),
        target: PROMOTION_TARGET_LABELS[p.appliesTo] + (p.appliesTo === "every_payment" ? ` (${p.cycles} renouvellements)` : ""),
        startsAt: p.startsAt,
        endsAt: p.endsAt,
        rules: [p.oncePerEmail ? "une fois par email" : null, p.firstOrderOnly ? "première commande" : null]
          .filter(Boolean)
          .join(", "),
        uses: p.uses,
        maxUses: p.maxUses,
        revenueCents: p.revenueCents,
        active: p.active,
      })),
      editing: editing
        ? {
            id: editing.id,
            ...promotionInput(editing),
            value: String(promotionInput(editing).value),
            startsAt: formDate(editing.startsAt),
            endsAt: formDate(editing.endsAt, true),
          }
        : null,
    },
    { headers: NO_STORE_HEADERS },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdminForm(request);
  const form = await readPageForm(request.clone());
  const intent = form.get("intent");
  const id = parseIdOrNull(String(form.get("id") ?? ""));
  if (intent === "toggle" && id !== null) {
    const active = form.get("active") === "true";
    if (!(await setPromotionActive(id, active)))
      return redirectWithError("/admin/promotions", { message: "Code introuvable", description: "Ce code promo n'existe plus." });
    return redirectWithSuccess("/admin/promotions", {
      message: active ? "Code activé" : "Code désactivé",
      description: active ? "Le code peut de nouveau être utilisé." : "Le code n'est plus accepté.",
    });
  }
  if (intent !== "save") return unknownAction("/admin/promotions");
  return submitAdminForm(request, promotionSchema, async (values) => {
    if (id === null) {
      const created = await createPromotion(values);
      return redirectWithSuccess("/admin/promotions", {
        message: "Code créé",
        description: `Le code ${created.code} est enregistré.`,
      });
    }
    if (!(await savePromotion(id, values)))
      return redirectWithError("/admin/promotions", { message: "Code introuvable", description: "Ce code promo n'existe plus." });
    return redirectWithSuccess("/admin/promotions", {
      message: "Code modifié",
      description: `Le code ${values.code} est enregistré.`,
    });
  });
}

type Row = SerializeFrom<typeof loader>["promotions"][number];

const TABLE: TableDefinition<Row> = {
  columns: [
    { header: "Code", className: "font-mono font-semibold", cell: (p) => p.code },
    { header: "Remise", cell: (p) => p.discount },
    { header: "S'applique à", cell: (p) => p.target },
    {
      header: "Validité",
      cell: (p) =>
        p.startsAt || p.endsAt
          ? `${p.startsAt ? `du ${formatDate(p.startsAt)} ` : ""}${p.endsAt ? `jusqu'au ${formatDate(p.endsAt)}` : ""}`
          : "Sans limite",
    },
    { header: "Conditions", cell: (p) => p.rules || "-" },
    { header: "Utilisations", cell: (p) => `${p.uses}${p.maxUses !== null ? ` / ${p.maxUses}` : ""}` },
    { header: "Chiffre d'affaires", cell: (p) => formatPrice(p.revenueCents) },
    { header: "Statut", cell: (p) => (p.active ? <Badge tone="green">Actif</Badge> : <Badge tone="gray">Désactivé</Badge>) },
  ],
  actions: (p) => (
    <>
      <Link to={`?edit=${p.id}`} className={buttonSmall} aria-label={`Modifier le code ${p.code}`}>
        Modifier
      </Link>
      <Form method="post">
        <input type="hidden" name="intent" value="toggle" />
        <input type="hidden" name="id" value={p.id} />
        <input type="hidden" name="active" value={p.active ? "false" : "true"} />
        <button type="submit" className={buttonSmall} aria-label={`${p.active ? "Désactiver" : "Activer"} le code ${p.code}`}>
          {p.active ? "Désactiver" : "Activer"}
        </button>
      </Form>
    </>
  ),
};

/** A number field of the schema (typed by the API as a number or a string), shown as text like the form sends it. */
const asText = (field: unknown) => field as TextFieldMetadata;

function PromotionForm({ editing }: { editing: SerializeFrom<typeof loader>["editing"] }) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: editing ? `promotion-${editing.id}` : "promotion-new",
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: editing ?? { kind: "percent", appliesTo: "one_off" },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: promotionSchema }),
  });
  return (
    <Card title={editing ? `Modifier le code ${editing.code}` : "Nouveau code"} className="mb-6">
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <input type="hidden" name="intent" value="save" />
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        {form.errors ? <FieldError id={form.errorId} errors={form.errors} /> : null}
        <Field label="Code (lettres et chiffres)" field={fields.code} maxLength={32} autoComplete="off" />
        <div>
          <label htmlFor={fields.kind.id} className="block text-sm font-medium">
            Type de remise
          </label>
          <select {...getSelectProps(fields.kind)} key={fields.kind.key} className={`${selectClass} mt-1 w-full`}>
            <option value="percent">Pourcentage</option>
            <option value="amount">Montant en euros</option>
          </select>
        </div>
        <Field label="Valeur (10 pour 10 %, ou 5,00 €)" field={asText(fields.value)} maxLength={10} />
        <div>
          <label htmlFor={fields.appliesTo.id} className="block text-sm font-medium">
            S'applique à
          </label>
          <select {...getSelectProps(fields.appliesTo)} key={fields.appliesTo.key} className={`${selectClass} mt-1 w-full`}>
            <option value="one_off">{PROMOTION_TARGET_LABELS.one_off}</option>
            <option value="first_payment">{PROMOTION_TARGET_LABELS.first_payment}</option>
            <option value="every_payment">{PROMOTION_TARGET_LABELS.every_payment}</option>
          </select>
        </div>
        <Field
          label="Renouvellements remisés (chaque paiement)"
          field={asText(fields.cycles)}
          type="number"
          inputMode="numeric"
        />
        <Field
          label="Utilisations au plus (vide : sans limite)"
          field={asText(fields.maxUses)}
          type="number"
          inputMode="numeric"
        />
        <div>
          <label htmlFor={fields.startsAt.id} className="block text-sm font-medium">
            Valable à partir du
          </label>
          <input {...getInputProps(fields.startsAt, { type: "date" })} key={fields.startsAt.key} className="field-input mt-1" />
          <FieldError id={fields.startsAt.errorId} errors={fields.startsAt.errors} />
        </div>
        <div>
          <label htmlFor={fields.endsAt.id} className="block text-sm font-medium">
            Valable jusqu'au (inclus)
          </label>
          <input {...getInputProps(fields.endsAt, { type: "date" })} key={fields.endsAt.key} className="field-input mt-1" />
          <FieldError id={fields.endsAt.errorId} errors={fields.endsAt.errors} />
        </div>
        <fieldset className="space-y-2 text-sm">
          <legend className="font-medium">Conditions</legend>
          <label className="flex items-center gap-2">
            <input {...getInputProps(fields.oncePerEmail, { type: "checkbox" })} key={fields.oncePerEmail.key} />
            Une fois par adresse email
          </label>
          <label className="flex items-center gap-2">
            <input {...getInputProps(fields.firstOrderOnly, { type: "checkbox" })} key={fields.firstOrderOnly.key} />
            Première commande seulement
          </label>
          {editing ? (
            <label className="flex items-center gap-2">
              <input {...getInputProps(fields.active, { type: "checkbox" })} key={fields.active.key} />
              Actif
            </label>
          ) : null}
        </fieldset>
        <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-3">
          <button type="submit" className={buttonPrimary}>
            {editing ? "Enregistrer le code" : "Créer le code"}
          </button>
          {editing ? (
            <Link to="/admin/promotions" className={buttonSecondary}>
              Annuler
            </Link>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}

export default function AdminPromotions() {
  const { promotions, editing } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title="Codes promo" />
      <PromotionForm key={editing?.id ?? "new"} editing={editing} />
      <DataTable label="Codes promo" rows={promotions} empty="Aucun code promo pour l'instant." {...TABLE} />
    </>
  );
}
