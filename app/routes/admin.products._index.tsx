import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { DataTable, EditDeleteLinks, type TableDefinition } from "~/components/admin/DataTable";
import { DeleteConfirmation } from "~/components/admin/DeleteConfirmation";
import { PageHeader, StockBadge } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { queryId, readRowAction, unknownAction } from "~/http/admin-pages.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { deleteProduct, listProducts } from "~/services/catalog.server";
import { productOffer } from "~/services/packs.server";

export const meta: MetaFunction = () => pageMeta("Produits", "Catalogue de la boutique.");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const products = await Promise.all(
    (await listProducts()).map(async (p) => ({
      id: p.id,
      name: p.name,
      image: p.images?.[0] ?? null,
      sku: p.sku,
      // What the shop sells it at: its packs on sale, else its own price, else nothing.
      sale: await saleSummary(p),
      category: p.category,
      stock: p.stock,
    })),
  );
  const deleteId = queryId(request, "delete");
  const toDelete = products.find((p) => p.id === deleteId) ?? null;
  return data({ products, toDelete }, { headers: NO_STORE_HEADERS });
}

async function saleSummary(product: Parameters<typeof productOffer>[0]): Promise<string> {
  const offer = await productOffer(product);
  if (offer.packs.length === 0)
    return offer.unitPriceCents !== null ? `${formatPrice(offer.unitPriceCents)} à l'unité` : "Non vendu";
  const prices = offer.packs.map((p) => p.priceCents);
  const count = `${offer.packs.length} pack${offer.packs.length > 1 ? "s" : ""}`;
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  return low === high ? `${count} : ${formatPrice(low)}` : `${count} : ${formatPrice(low)} à ${formatPrice(high)}`;
}

export async function action({ request }: ActionFunctionArgs) {
  const { id, intent } = await readRowAction(request);
  if (intent !== "delete" || id === null) return unknownAction("/admin/products");
  const result = await deleteProduct(id);
  if (result.deleted) {
    return redirectWithSuccess("/admin/products", {
      message: "Produit supprimé",
      description: "Le produit a été retiré du catalogue.",
    });
  }
  const description =
    result.reason === "ordered"
      ? `Ce produit figure dans ${result.orders} commande${(result.orders ?? 0) > 1 ? "s" : ""} : il ne peut pas être supprimé. Mettez son stock à 0 pour ne plus le vendre.`
      : result.reason === "featured"
        ? "Ce produit est vendu sur la page d'accueil : il ne peut pas être supprimé. Mettez son stock à 0 pour ne plus le vendre."
        : "Ce produit n'existe plus.";
  return redirectWithError("/admin/products", { message: "Suppression impossible", description });
}

type ProductRow = SerializeFrom<typeof loader>["products"][number];

const TABLE: TableDefinition<ProductRow> = {
  columns: [
    { header: "ID", className: "font-mono", cell: (p) => p.id },
    {
      header: "Nom",
      cell: (p) => (
        <div className="flex items-center gap-3">
          {p.image ? (
            <img
              src={p.image}
              alt=""
              width={40}
              height={40}
              className="h-10 w-10 rounded-md border border-slate-200 object-cover"
              loading="lazy"
            />
          ) : (
            <span
              aria-hidden="true"
              className="flex h-10 w-10 items-center justify-center rounded-md bg-slate-100 text-[10px] text-slate-400"
            >
              Image
            </span>
          )}
          <span className="font-medium">{p.name}</span>
        </div>
      ),
    },
    { header: "SKU", className: "font-mono text-xs", cell: (p) => p.sku },
    { header: "Prix de vente", className: "tabular-nums", cell: (p) => p.sale },
    { header: "Catégorie", cell: (p) => p.category || "-" },
    { header: "Stock", cell: (p) => <StockBadge stock={p.stock} /> },
  ],
  actions: (p) => <EditDeleteLinks id={p.id} editTo={`/admin/products/edit/${p.id}`} name={p.name} />,
};

export default function AdminProducts() {
  const { products, toDelete } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title="Produits" add={{ to: "/admin/products/new", label: "Ajouter un produit" }} />
      <DataTable {...TABLE} label="Liste des produits" empty="Aucun produit trouvé" rows={products} />
      {toDelete ? <DeleteConfirmation id={toDelete.id} subject={`le produit « ${toDelete.name} » (${toDelete.sku})`} /> : null}
    </>
  );
}
