import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithSuccess } from "remix-toast";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminFormPage } from "~/components/admin/AdminForm";
import { ProductForm } from "~/components/admin/ProductForm";
import { requireAdmin } from "~/http/admin-guard.server";
import { notFound, recordOr404, requireAdminForm, submitAdminForm } from "~/http/admin-pages.server";
import { pageIdOr404 } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { centsToDecimal } from "~/lib/money";
import { productFields, productSchema } from "~/schemas/product";
import { getProduct, updateProduct } from "~/services/catalog.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data ? `Modifier ${data.product.name}` : "Produit introuvable", "Modifier un produit.");

const NOT_FOUND = "Produit introuvable";

const euros = (cents: number | null) => (cents === null ? "" : centsToDecimal(cents).replace(".", ","));

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const product = recordOr404(params.id, NOT_FOUND, getProduct);
  return json(
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
      },
    },
    { headers: NO_STORE_HEADERS },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdminForm(request);
  const id = pageIdOr404(params.id, NOT_FOUND);
  return submitAdminForm(request, productSchema, (value) => {
    const product = updateProduct(id, productFields(value));
    if (!product) throw notFound(NOT_FOUND);
    return redirectWithSuccess("/admin/products", { message: "Produit mis à jour", description: `« ${product.name} » a été enregistré.` });
  });
}

export default function EditProduct() {
  const { product } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { id, ...defaults } = product;
  return (
    <AdminFormPage title={`Modifier le produit #${id}`} back={{ to: "/admin/products", label: "Retour aux produits" }} deleteTo={`/admin/products?delete=${id}`}>
      <ProductForm id={`product-${id}`} lastResult={actionData?.result} submitLabel="Enregistrer les modifications" defaultValue={defaults} />
    </AdminFormPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary notFound="Produit introuvable." backTo="/admin/products" backLabel="Retour aux produits" />;
}
