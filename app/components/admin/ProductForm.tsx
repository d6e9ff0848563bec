import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Field, FieldError, TextareaField } from "~/components/ui/Field";
import { productSchema } from "~/schemas/product";
import { AdminForm } from "./AdminForm";
import { Card } from "./ui";

type ProductFormDefaults = {
  name: string;
  sku: string;
  price: string;
  originalPrice: string;
  category: string;
  description: string;
  stock: number;
  images: string;
};

/** The product form of the new and edit pages (prices typed in euros, comma or dot). */
export function ProductForm({
  id,
  defaultValue,
  lastResult,
  submitLabel,
}: {
  id: string;
  defaultValue?: ProductFormDefaults;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
}) {
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: productSchema }),
  });
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
          <Field label="Prix TTC (€)" field={fields.price} inputMode="decimal" hint="Par exemple 25,90" />
          <Field label="Prix barré TTC (€, facultatif)" field={fields.originalPrice} inputMode="decimal" hint="Prix avant réduction, laissé vide s'il n'y en a pas" />
          <div>
            <label htmlFor={fields.stock.id} className="block text-sm font-medium text-ink">
              Stock
            </label>
            <input {...getInputProps(fields.stock, { type: "number" })} key={fields.stock.key} min={0} step={1} className="field-input mt-1" />
            <FieldError id={fields.stock.errorId} errors={fields.stock.errors} />
          </div>
        </Card>
      </div>
    </AdminForm>
  );
}
