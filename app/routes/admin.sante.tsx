import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { HealthLevelBadge } from "~/components/admin/HealthLevel";
import { Card, PageHeader } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { pageMeta } from "~/lib/meta";
import { shopHealth } from "~/services/health/shop-health.server";

export const meta: MetaFunction = () =>
  pageMeta("Santé de la boutique", "Sauvegardes, emails, paiements et réglages en un coup d'œil.");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return data(await shopHealth(), { headers: NO_STORE_HEADERS });
}

const OVERALL = {
  green: "Tout va bien.",
  amber: "Certains points sont à surveiller.",
  red: "Un point demande votre attention maintenant.",
} as const;

export default function ShopHealthPage() {
  const { level, items } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title="Santé de la boutique">
        <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-ink-soft" data-testid="health-overall">
          <HealthLevelBadge level={level} /> {OVERALL[level]}
        </p>
      </PageHeader>
      <ul className="grid gap-4 lg:grid-cols-2">
        {items.map((item) => (
          <li key={item.key} className="min-w-0" data-testid={`health-${item.key}`} data-level={item.level}>
            <Card className="h-full">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h2 className="text-lg font-semibold">{item.title}</h2>
                <HealthLevelBadge level={item.level} />
              </div>
              <p className="mt-2 font-medium">{item.summary}</p>
              <ul className="mt-2 grid gap-1 text-sm text-ink-soft">
                {item.details.map((detail) => (
                  <li key={detail} className="[overflow-wrap:anywhere]">
                    {detail}
                  </li>
                ))}
              </ul>
              {item.link ? (
                <p className="mt-3 text-sm">
                  <Link to={item.link.to} className="font-medium underline underline-offset-2">
                    {item.link.label}
                  </Link>
                </p>
              ) : null}
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}
