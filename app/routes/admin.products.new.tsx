import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { redirectWithSuccess, redirectWithWarning } from "~/http/toast.server";
import { AdminFormPage } from "~/components/admin/AdminForm";
import { BLANK_PACK, ProductForm } from "~/components/admin/ProductForm";
import { adminPageLoader, requireAdminForm, submitAdminForm } from "~/http/admin-pages.server";
import { pageMeta } from "~/lib/meta";
import { productFields, productSchema } from "~/schemas/product";
import { createProduct } from "~/services/catalog.server";
import { crossedOutWarnings } from "~/services/packs.server";

export const meta: MetaFunction = () => pageMeta("Nouveau produit", "Ajouter un produit au catalogue.");

export const loader = ({ request }: LoaderFunctionArgs) => adminPageLoader(request);

export async function action({ request }: ActionFunctionArgs) {
  await requireAdminForm(request);
  return submitAdminForm(request, productSchema, async (value) => {
    const { fields, packs } = productFields(value);
    const product = await createProduct(fields, packs);
    const warnings = await crossedOutWarnings(product.id);
    if (warnings.length) {
      return redirectWithWarning(`/admin/products/edit/${product.id}`, {
        message: "Produit créé",
        description: `« ${product.name} » a été ajouté au catalogue, mais un prix barré n'est pas conforme et n'est pas affiché en boutique : ${warnings[0]}`,
      });
    }
    return redirectWithSuccess("/admin/products", {
      message: "Produit créé",
      description: `« ${product.name} » a été ajouté au catalogue.`,
    });
  });
}

const EMPTY = {
  name: "",
  sku: "",
  price: "",
  originalPrice: "",
  category: "",
  description: "",
  stock: 0,
  images: "",
  saleWithoutPack: "unit" as const,
  packs: [{ ...BLANK_PACK, position: "1" }],
};

export default function NewProduct() {
  const actionData = useActionData<typeof action>();
  return (
    <AdminFormPage title="Nouveau produit" back={{ to: "/admin/products", label: "Retour aux produits" }}>
      <ProductForm id="product-new" lastResult={actionData?.result} submitLabel="Créer le produit" defaultValue={EMPTY} />
    </AdminFormPage>
  );
}
