/** Three key figures at the top of a help page (e.g. free delivery, shipped within 24 hours). */
export function InfoFacts({ facts }: { facts: readonly { label: string; value: string }[] }) {
  return (
    <dl className="mt-8 grid gap-3 sm:grid-cols-3" data-testid="info-facts">
      {facts.map((fact) => (
        <div key={fact.label} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-ink/5">
          <dt className="text-xs font-semibold uppercase tracking-wider text-ink-soft">{fact.label}</dt>
          <dd className="mt-1 font-serif text-lg text-ink">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
