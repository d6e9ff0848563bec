import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/http/admin-guard.server";
import { apiError, apiJson, handleApi, methodNotAllowed, parseId, readJsonBody } from "~/http/api.server";
import { cacheControl, PUBLIC_CATALOG } from "~/http/cache-control";
import { productFields, productSchema } from "~/schemas/product";
import { getProduct, productToApi, updateProduct } from "~/services/catalog.server";
import { crossedOutWarnings } from "~/services/packs.server";

/** GET /api/products/{id}: one product of the public catalog (id, name, images, price "25.90", ...). */
export const loader = ({ params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const product = await getProduct(parseId(params.id, "Identifiant de produit"));
    if (!product) return apiError(404, "Produit introuvable");
    return apiJson(await productToApi(product), { headers: cacheControl(PUBLIC_CATALOG) });
  });

/**
 * PUT /api/products/{id} (admin only): the product form's fields and packs, with the form's
 * schema. A pack with an `id` is updated, one without is added; packs not sent are unchanged.
 * Answers the product as the catalog gives it, with the crossed-out prices that are not lawful.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
    await requireAdminApi(request);
    const id = parseId(params.id, "Identifiant de produit");
    if (!(await getProduct(id))) return apiError(404, "Produit introuvable");
    const { fields, packs } = productFields(await readJsonBody(request, productSchema));
    const product = await updateProduct(id, fields, packs);
    if (!product) return apiError(404, "Produit introuvable");
    return apiJson({ ...(await productToApi(product)), crossedOutWarnings: await crossedOutWarnings(id) });
  });
