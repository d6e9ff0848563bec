import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { redirectWithSuccess } from "remix-toast";
import { ProductForm } from "~/components/admin/ProductForm";
import { PageHeader } from "~/components/admin/ui";
import { actionError, refusalReply } from "~/http/action-errors.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { productSchema } from "~/schemas/product";
import { createProduct } from "~/services/catalog.server";

export const meta: MetaFunction = () => pageMeta("Nouveau produit", "Ajouter un produit au catalogue.");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(null, { headers: NO_STORE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: productSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply() }, { status: 400 });
  }
  const { price, originalPrice, ...rest } = submission.value;
  try {
    const product = createProduct({ ...rest, priceCents: price, originalPriceCents: originalPrice });
    return redirectWithSuccess("/admin/products", { message: "Produit créé", description: `« ${product.name} » a été ajouté au catalogue.` });
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return json({ result: submission.reply(refusalReply(refusal)) }, { status: refusal.status });
  }
}

export default function NewProduct() {
  const actionData = useActionData<typeof action>();
  return (
    <>
      <PageHeader title="Nouveau produit" back={{ to: "/admin/products", label: "Retour aux produits" }} />
      <ProductForm id="product-new" lastResult={actionData?.result} submitLabel="Créer le produit" defaultValue={{ name: "", sku: "", price: "", originalPrice: "", category: "", description: "", stock: 0, images: "" }} />
    </>
  );
}
