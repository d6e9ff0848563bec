import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type Submission,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Field, FieldError, TextareaField } from "~/components/ui/Field";
import { formatDateTime } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { SALE_WITHOUT_PACK, SALE_WITHOUT_PACK_LABELS, type SaleWithoutPack } from "~/lib/packs";
import { productSchema } from "~/schemas/product";
import { AdminForm } from "./AdminForm";
import { Card, selectClass } from "./ui";

/** A pack row of the form, as typed (prices in euros). An empty `id` is the blank row that adds a pack. */
export type PackFormDefaults = {
  id: string;
  name: string;
  description: string;
  masks: string;
  price: string;
  referencePrice: string;
  popular: boolean;
  trial: boolean;
  position: string;
  active: "true" | "false";
};

/** What the edit page knows of a saved pack: its crossed-out price check and its price history. */
export type PackPriceInfo = {
  id: number;
  lowestCents: number | null;
  currentSince: string | null;
  warning: string | null;
  history: { priceCents: number; startedAt: string; note: string | null }[];
};

type ProductFormDefaults = {
  name: string;
  sku: string;
  price: string;
  originalPrice: string;
  category: string;
  description: string;
  stock: number;
  images: string;
  saleWithoutPack: SaleWithoutPack;
  packs: PackFormDefaults[];
};

export const BLANK_PACK: PackFormDefaults = {
  id: "",
  name: "",
  description: "",
  masks: "",
  price: "",
  referencePrice: "",
  popular: false,
  trial: false,
  position: "",
  active: "true",
};

/** The product form of the new and edit pages (prices typed in euros, comma or dot), with its packs. */
export function ProductForm({
  id,
  defaultValue,
  lastResult,
  submitLabel,
  priceInfo = [],
}: {
  id: string;
  defaultValue?: ProductFormDefaults;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
  priceInfo?: PackPriceInfo[];
}) {
  const [form, fields] = useForm<ProductFormDefaults, ProductFormDefaults>({
    id,
    lastResult,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    // The form is typed by its fields as typed (the schema turns them into cents and booleans).
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: productSchema }) as unknown as Submission<
        ProductFormDefaults,
        string[],
        ProductFormDefaults
      >,
  });
  const packRows = fields.packs.getFieldList();
  return (
    <AdminForm form={form} submitLabel={submitLabel} cancelTo="/admin/products">
      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card title="Informations">
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field label="Nom du produit" field={fields.name} className="sm:col-span-2" />
            <Field label="SKU (référence unique)" field={fields.sku} autoComplete="off" />
            <Field label="Catégorie" field={fields.category} />
            <TextareaField label="Description" field={fields.description} rows={4} className="sm:col-span-2" />
            <TextareaField label="Images (une adresse par ligne)" field={fields.images} rows={4} className="sm:col-span-2" />
            <p className="-mt-4 mb-2 text-xs text-ink-soft sm:col-span-2">
              Un chemin du site comme /images/product-mask.svg ou une adresse https://. La première image sert de vignette.
            </p>
          </div>
        </Card>
        <Card title="Prix et stock">
          <Field
            label="Prix TTC (€)"
            field={fields.price}
            inputMode="decimal"
            hint="Prix du produit vendu à l'unité, sans pack. Par exemple 25,90"
          />
          <Field
            label="Prix barré TTC (€, facultatif)"
            field={fields.originalPrice}
            inputMode="decimal"
            hint="Donné par l'API du catalogue ; la boutique ne barre que les prix des packs, dont l'historique est tenu."
          />
          <div>
            <label htmlFor={fields.saleWithoutPack.id} className="block text-sm font-medium text-ink">
              Sans pack en vente
            </label>
            <select
              {...getSelectProps(fields.saleWithoutPack)}
              key={fields.saleWithoutPack.key}
              className={`${selectClass} mt-1 w-full`}
            >
              {SALE_WITHOUT_PACK.map((value) => (
                <option key={value} value={value}>
                  {SALE_WITHOUT_PACK_LABELS[value]}
                </option>
              ))}
            </select>
            <p className="mt-1 text-xs text-ink-soft">Ce que la fiche produit propose quand aucun pack n'est en vente.</p>
            <FieldError id={fields.saleWithoutPack.errorId} errors={fields.saleWithoutPack.errors} />
          </div>
          <div>
            <label htmlFor={fields.stock.id} className="block text-sm font-medium text-ink">
              Stock
            </label>
            <input
              {...getInputProps(fields.stock, { type: "number" })}
              key={fields.stock.key}
              min={0}
              step={1}
              className="field-input mt-1"
            />
            <FieldError id={fields.stock.errorId} errors={fields.stock.errors} />
          </div>
        </Card>
      </div>

      <section
        aria-labelledby={`${id}-packs-title`}
        className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
      >
        <h2 id={`${id}-packs-title`} className="text-lg font-semibold">
          Packs
        </h2>
        <p className="mt-1 text-sm text-ink-soft">
          La fiche produit propose les packs en vente, du plus petit ordre au plus grand. Un pack n'est jamais supprimé :
          désactivez-le. Pour ajouter un pack, remplissez la ligne « Nouveau pack ». Le prix barré n'est affiché en boutique que
          s'il est le prix le plus bas pratiqué dans les 30 jours précédant le prix actuel (article L112-1-1 du Code de la
          consommation).
        </p>
        <FieldError id={fields.packs.errorId} errors={fields.packs.errors} />
        <div className="mt-4 space-y-4">
          {packRows.map((row, index) => (
            <PackRow key={row.key} row={row} index={index} info={priceInfo} />
          ))}
        </div>
      </section>
    </AdminForm>
  );
}

type PackFieldset = ReturnType<FieldMetadata<PackFormDefaults>["getFieldset"]>;

function PackRow({ row, index, info }: { row: FieldMetadata<PackFormDefaults>; index: number; info: PackPriceInfo[] }) {
  const f: PackFieldset = row.getFieldset();
  const packId = Number(f.id.value ?? f.id.initialValue ?? "") || null;
  const saved = packId ? info.find((p) => p.id === packId) : undefined;
  const title = packId ? `Pack n°${packId}` : "Nouveau pack";
  const titleId = `${row.id}-title`;
  return (
    <fieldset aria-labelledby={titleId} className="rounded-lg border border-slate-200 p-4" data-testid={`pack-row-${index}`}>
      <h3 id={titleId} className="text-base font-semibold">
        {title}
        {!packId ? (
          <span className="ml-2 text-sm font-normal text-ink-soft">(facultatif : laissez vide pour n'ajouter aucun pack)</span>
        ) : null}
      </h3>
      <input {...getInputProps(f.id, { type: "hidden" })} key={f.id.key} />
      <div className="mt-3 grid gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
        <PackInput label="Nom du pack" field={f.name} className="sm:col-span-2" />
        <PackInput label="Nombre de masques" field={f.masks} type="number" />
        <PackInput label="Ordre d'affichage" field={f.position} type="number" />
        <div className="sm:col-span-2 lg:col-span-4">
          <label htmlFor={f.description.id} className="block text-sm font-medium text-ink">
            Description du pack
          </label>
          <textarea
            {...getTextareaProps(f.description, { ariaAttributes: true })}
            key={f.description.key}
            rows={2}
            className="field-input mt-1"
          />
          <FieldError id={f.description.errorId} errors={f.description.errors} />
        </div>
        <PackInput label="Prix du pack TTC (€)" field={f.price} inputMode="decimal" />
        <div className="sm:col-span-1 lg:col-span-1">
          <PackInput label="Prix de référence barré (€)" field={f.referencePrice} inputMode="decimal" />
        </div>
        <div className="sm:col-span-2">
          {saved ? (
            <ReferenceInfo info={saved} />
          ) : (
            <p className="pt-6 text-xs text-ink-soft">
              Le prix le plus bas des 30 jours précédents s'affiche une fois le pack enregistré.
            </p>
          )}
        </div>
        <div>
          <label htmlFor={f.active.id} className="block text-sm font-medium text-ink">
            État
          </label>
          <select {...getSelectProps(f.active)} key={f.active.key} className={`${selectClass} mt-1 w-full`}>
            <option value="true">En vente</option>
            <option value="false">Désactivé</option>
          </select>
          <FieldError id={f.active.errorId} errors={f.active.errors} />
        </div>
        <div className="flex flex-col justify-center gap-2 sm:col-span-1 lg:col-span-3 lg:flex-row lg:items-center lg:gap-6">
          <Checkbox label="Meilleure vente (mis en avant)" field={f.popular} />
          <Checkbox label="Pack d'essai (1 par commande, une fois par email, sans abonnement)" field={f.trial} />
        </div>
      </div>
      {saved && saved.history.length > 0 ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-ink">Historique des prix</summary>
          <ul className="mt-2 space-y-1 text-ink-soft">
            {saved.history.map((h, i) => (
              <li key={`${h.startedAt}-${i}`}>
                {formatPrice(h.priceCents)} à partir du {formatDateTime(h.startedAt)}
                {h.note ? (
                  <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold text-slate-700">{h.note}</span>
                ) : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </fieldset>
  );
}

/** The lowest price of the 30 days before the current price, and the warning when the crossed-out price is not lawful. */
function ReferenceInfo({ info }: { info: PackPriceInfo }) {
  return (
    <div className="pt-1 text-sm sm:pt-6">
      <p className="text-ink-soft" data-testid="lowest-30-days">
        {info.lowestCents !== null
          ? `Prix le plus bas des 30 jours précédant le prix actuel : ${formatPrice(info.lowestCents)}`
          : "Aucun autre prix pratiqué dans les 30 jours précédant le prix actuel."}
        {info.currentSince ? ` (prix actuel depuis le ${formatDateTime(info.currentSince)})` : null}
      </p>
      {info.warning ? (
        <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 font-medium text-amber-900" data-testid="crossed-out-warning">
          {info.warning}
        </p>
      ) : null}
    </div>
  );
}

function PackInput({
  label,
  field,
  type = "text",
  inputMode,
  className = "",
}: {
  label: string;
  field: FieldMetadata<string>;
  type?: "text" | "number";
  inputMode?: React.HTMLAttributes<HTMLInputElement>["inputMode"];
  className?: string;
}) {
  const props = getInputProps(field, { type, ariaAttributes: true });
  return (
    <div className={className}>
      <label htmlFor={field.id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      <input
        {...props}
        key={props.key}
        inputMode={inputMode}
        min={type === "number" ? 0 : undefined}
        className="field-input mt-1"
      />
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

function Checkbox({ label, field }: { label: string; field: FieldMetadata<boolean> }) {
  return (
    <div>
      <label className="flex items-center gap-2 text-sm text-ink">
        <input
          {...getInputProps(field, { type: "checkbox", ariaAttributes: true })}
          key={field.key}
          className="h-4 w-4 accent-rose-600"
        />
        {label}
      </label>
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}
