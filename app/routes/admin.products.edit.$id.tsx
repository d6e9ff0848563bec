import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithSuccess, redirectWithWarning } from "~/http/toast.server";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminFormPage } from "~/components/admin/AdminForm";
import { BLANK_PACK, ProductForm } from "~/components/admin/ProductForm";
import { requireAdmin } from "~/http/admin-guard.server";
import { notFound, recordOr404, requireAdminForm, submitAdminForm } from "~/http/admin-pages.server";
import { pageIdOr404 } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { centsToDecimal } from "~/lib/money";
import { productFields, productSchema } from "~/schemas/product";
import { getProduct, updateProduct } from "~/services/catalog.server";
import { adminPacks, crossedOutWarnings } from "~/services/packs.server";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(data ? `Modifier ${data.product.name}` : "Produit introuvable", "Modifier un produit.");

const NOT_FOUND = "Produit introuvable";

const euros = (cents: number | null) => (cents === null ? "" : centsToDecimal(cents).replace(".", ","));

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const product = await recordOr404(params.id, NOT_FOUND, getProduct);
  const packs = await adminPacks(product.id);
  return data(
    {
      product: {
        id: product.id,
        name: product.name,
        sku: product.sku,
        price: euros(product.priceCents),
        originalPrice: euros(product.originalPriceCents),
        category: product.category,
        description: product.description,
        stock: product.stock,
        images: (product.images ?? []).join("\n"),
        saleWithoutPack: product.saleWithoutPack,
        // The saved packs, then a blank row that adds one (a plain form post, no script needed).
        packs: [
          ...packs.map((p) => ({
            id: String(p.id),
            name: p.name,
            description: p.description,
            masks: String(p.masks),
            price: euros(p.priceCents),
            referencePrice: euros(p.referencePriceCents),
            popular: p.popular,
            trial: p.trial,
            position: String(p.position),
            active: p.active ? ("true" as const) : ("false" as const),
          })),
          { ...BLANK_PACK, position: String(packs.length ? Math.max(...packs.map((p) => p.position)) + 1 : 1) },
        ],
      },
      priceInfo: packs.map((p) => ({
        id: p.id,
        lowestCents: p.check.lowestCents,
        currentSince: p.check.currentSince,
        warning: p.active ? p.check.warning : null,
        history: p.history.map((h) => ({ priceCents: h.priceCents, startedAt: h.startedAt, note: h.note ?? null })),
      })),
    },
    { headers: NO_STORE_HEADERS },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminForm(request);
  const id = pageIdOr404(params.id, NOT_FOUND);
  return submitAdminForm(request, productSchema, async (value) => {
    const { fields, packs } = productFields(value);
    const product = await updateProduct(id, fields, packs);
    if (!product) throw notFound(NOT_FOUND);
    // A crossed-out price that is not lawful: back to the form, where each one is explained.
    const warnings = await crossedOutWarnings(id);
    if (warnings.length) {
      return redirectWithWarning(`/admin/products/edit/${id}`, {
        message: "Produit mis à jour",
        description: `« ${product.name} » a été enregistré, mais un prix barré n'est pas conforme et n'est pas affiché en boutique : ${warnings[0]}`,
      });
    }
    return redirectWithSuccess("/admin/products", {
      message: "Produit mis à jour",
      description: `« ${product.name} » a été enregistré.`,
    });
  });
}

export default function EditProduct() {
  const { product, priceInfo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { id, ...defaults } = product;
  return (
    <AdminFormPage
      title={`Modifier le produit #${id}`}
      back={{ to: "/admin/products", label: "Retour aux produits" }}
      deleteTo={`/admin/products?delete=${id}`}
    >
      <ProductForm
        id={`product-${id}`}
        lastResult={actionData?.result}
        submitLabel="Enregistrer les modifications"
        defaultValue={defaults}
        priceInfo={priceInfo}
      />
    </AdminFormPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary notFound="Produit introuvable." backTo="/admin/products" backLabel="Retour aux produits" />;
}
