import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "remix-toast";
import { DeleteConfirmation } from "~/components/admin/DeleteConfirmation";
import { iconButton, PencilIcon, TrashIcon } from "~/components/admin/icons";
import { buttonPrimary, EmptyRow, PageHeader, StockBadge, TableWrap, td, th } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { parseIdOrNull } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { deleteProduct, listProducts } from "~/services/catalog.server";

export const meta: MetaFunction = () => pageMeta("Produits", "Catalogue de la boutique.");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const products = listProducts().map((p) => ({
    id: p.id,
    name: p.name,
    image: p.images?.[0] ?? null,
    sku: p.sku,
    priceCents: p.priceCents,
    category: p.category,
    stock: p.stock,
  }));
  const deleteParam = new URL(request.url).searchParams.get("delete");
  const toDelete = deleteParam ? (products.find((p) => String(p.id) === deleteParam) ?? null) : null;
  return json({ products, toDelete }, { headers: NO_STORE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  await requireAdmin(request);
  const form = await request.formData();
  const id = parseIdOrNull(String(form.get("id") ?? ""));
  if (form.get("intent") !== "delete" || id === null) {
    return redirectWithError("/admin/products", { message: "Erreur", description: "Une erreur est survenue: action inconnue" });
  }
  const result = deleteProduct(id);
  if (result.deleted) {
    return redirectWithSuccess("/admin/products", { message: "Produit supprimé", description: "Le produit a été retiré du catalogue." });
  }
  const description =
    result.reason === "ordered"
      ? `Ce produit figure dans ${result.orders} commande${(result.orders ?? 0) > 1 ? "s" : ""} : il ne peut pas être supprimé. Mettez son stock à 0 pour ne plus le vendre.`
      : result.reason === "featured"
        ? "Ce produit est vendu sur la page d'accueil : il ne peut pas être supprimé. Mettez son stock à 0 pour ne plus le vendre."
        : "Ce produit n'existe plus.";
  return redirectWithError("/admin/products", { message: "Suppression impossible", description });
}

export default function AdminProducts() {
  const { products, toDelete } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const deleting = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  return (
    <>
      <PageHeader
        title="Produits"
        actions={
          <Link to="/admin/products/new" className={buttonPrimary}>
            Ajouter un produit
          </Link>
        }
      />
      <TableWrap label="Liste des produits">
        <thead>
          <tr>
            <th scope="col" className={th}>ID</th>
            <th scope="col" className={th}>Nom</th>
            <th scope="col" className={th}>SKU</th>
            <th scope="col" className={th}>Prix</th>
            <th scope="col" className={th}>Catégorie</th>
            <th scope="col" className={th}>Stock</th>
            <th scope="col" className={th}>Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {products.length === 0 ? (
            <EmptyRow colSpan={7}>Aucun produit trouvé</EmptyRow>
          ) : (
            products.map((p) => (
              <tr key={p.id} className="hover:bg-slate-50">
                <td className={`${td} font-mono`}>{p.id}</td>
                <td className={td}>
                  <div className="flex items-center gap-3">
                    {p.image ? (
                      <img src={p.image} alt="" width={40} height={40} className="h-10 w-10 rounded-md border border-slate-200 object-cover" loading="lazy" />
                    ) : (
                      <span aria-hidden="true" className="flex h-10 w-10 items-center justify-center rounded-md bg-slate-100 text-[10px] text-slate-400">
                        Image
                      </span>
                    )}
                    <span className="font-medium">{p.name}</span>
                  </div>
                </td>
                <td className={`${td} font-mono text-xs`}>{p.sku}</td>
                <td className={`${td} tabular-nums`}>{formatPrice(p.priceCents)}</td>
                <td className={td}>{p.category || "-"}</td>
                <td className={td}>
                  <StockBadge stock={p.stock} />
                </td>
                <td className={td}>
                  <div className="flex gap-2">
                    <Link to={`/admin/products/edit/${p.id}`} className={iconButton} aria-label={`Modifier ${p.name}`} title="Modifier">
                      <PencilIcon />
                    </Link>
                    <Link to={`?delete=${p.id}`} preventScrollReset className={`${iconButton} text-red-700`} aria-label={`Supprimer ${p.name}`} title="Supprimer">
                      <TrashIcon />
                    </Link>
                  </div>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </TableWrap>

      {toDelete ? (
        <DeleteConfirmation closeTo="/admin/products" action="/admin/products?index" id={toDelete.id} deleting={deleting}>
          <p>
            Êtes-vous sûr de vouloir supprimer le produit « {toDelete.name} » ({toDelete.sku}) ? Cette action est irréversible.
          </p>
        </DeleteConfirmation>
      ) : null}
    </>
  );
}
