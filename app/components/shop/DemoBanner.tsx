export function DemoBanner() {
  return (
    <div role="note" className="bg-ink px-4 py-1.5 text-center text-xs text-white print:hidden">
      Boutique de démonstration : les paiements sont simulés, aucune carte n'est débitée.
    </div>
  );
}
