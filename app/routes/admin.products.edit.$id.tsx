import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithSuccess } from "remix-toast";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { ProductForm } from "~/components/admin/ProductForm";
import { buttonDanger, PageHeader } from "~/components/admin/ui";
import { actionError, refusalReply } from "~/http/action-errors.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { pageIdOr404, requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { centsToDecimal } from "~/lib/money";
import { productSchema } from "~/schemas/product";
import { getProduct, updateProduct } from "~/services/catalog.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data ? `Modifier ${data.product.name}` : "Produit introuvable", "Modifier un produit.");

const euros = (cents: number | null) => (cents === null ? "" : centsToDecimal(cents).replace(".", ","));

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const product = getProduct(pageIdOr404(params.id, "Produit introuvable"));
  if (!product) throw new Response("Produit introuvable", { status: 404 });
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
  requireSameOriginForm(request);
  await requireAdmin(request);
  const id = pageIdOr404(params.id, "Produit introuvable");
  const submission = parseWithZod(await request.formData(), { schema: productSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply() }, { status: 400 });
  }
  const { price, originalPrice, ...rest } = submission.value;
  try {
    const product = updateProduct(id, { ...rest, priceCents: price, originalPriceCents: originalPrice });
    if (!product) throw new Response("Produit introuvable", { status: 404 });
    return redirectWithSuccess("/admin/products", { message: "Produit mis à jour", description: `« ${product.name} » a été enregistré.` });
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return json({ result: submission.reply(refusalReply(refusal)) }, { status: refusal.status });
  }
}

export default function EditProduct() {
  const { product } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { id, ...defaults } = product;
  return (
    <>
      <PageHeader
        title={`Modifier le produit #${id}`}
        back={{ to: "/admin/products", label: "Retour aux produits" }}
        actions={
          <Link to={`/admin/products?delete=${id}`} className={buttonDanger}>
            Supprimer
          </Link>
        }
      />
      <ProductForm id={`product-${id}`} lastResult={actionData?.result} submitLabel="Enregistrer les modifications" defaultValue={defaults} />
    </>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary notFound="Produit introuvable." backTo="/admin/products" backLabel="Retour aux produits" />;
}
