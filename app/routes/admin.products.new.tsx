import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { redirectWithSuccess } from "remix-toast";
import { AdminFormPage } from "~/components/admin/AdminForm";
import { ProductForm } from "~/components/admin/ProductForm";
import { adminPageLoader, requireAdminForm, submitAdminForm } from "~/http/admin-pages.server";
import { pageMeta } from "~/lib/meta";
import { productFields, productSchema } from "~/schemas/product";
import { createProduct } from "~/services/catalog.server";

export const meta: MetaFunction = () => pageMeta("Nouveau produit", "Ajouter un produit au catalogue.");

export const loader = ({ request }: LoaderFunctionArgs) => adminPageLoader(request);

export async function action({ request }: ActionFunctionArgs) {
  await requireAdminForm(request);
  return submitAdminForm(request, productSchema, (value) => {
    const product = createProduct(productFields(value));
    return redirectWithSuccess("/admin/products", { message: "Produit créé", description: `« ${product.name} » a été ajouté au catalogue.` });
  });
}

const EMPTY = { name: "", sku: "", price: "", originalPrice: "", category: "", description: "", stock: 0, images: "" };

export default function NewProduct() {
  const actionData = useActionData<typeof action>();
  return (
    <AdminFormPage title="Nouveau produit" back={{ to: "/admin/products", label: "Retour aux produits" }}>
      <ProductForm id="product-new" lastResult={actionData?.result} submitLabel="Créer le produit" defaultValue={EMPTY} />
    </AdminFormPage>
  );
}
