import type { Field, OperationView } from "~/openapi/view.server";

/** One operation of the JSON API on /docs/api: method, path, access, parameters, body and responses. */

const METHOD_STYLE: Record<string, string> = {
  GET: "bg-sage-100 text-sage-700",
  POST: "bg-rose-100 text-rose-700",
  PUT: "bg-sand text-ink",
  PATCH: "bg-sand text-ink",
  DELETE: "bg-ink text-ivory",
};

/** `code` spans in the document's texts. */
export function Text({ children }: { children: string }) {
  const parts = children.split(/`([^`]+)`/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-sand px-1 text-[0.9em]">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function FieldTable({ caption, fields }: { caption: string; fields: Field[] }) {
  return (
    <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full min-w-[32rem] border-collapse text-left text-sm">
        <caption className="mb-1 text-left font-semibold text-ink">{caption}</caption>
        <thead>
          <tr className="border-b border-ink/15 text-ink-soft">
            <th scope="col" className="py-1 pr-3 font-medium">
              Champ
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Type
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Requis
            </th>
            <th scope="col" className="py-1 font-medium">
              Règles
            </th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={f.name} className="border-b border-ink/5 align-top">
              <td className="py-1 pr-3 font-mono text-xs">{f.name}</td>
              <td className="py-1 pr-3">{f.type}</td>
              <td className="py-1 pr-3">{f.required ? "oui" : "non"}</td>
              <td className="py-1 text-ink-soft">
                <Text>{f.notes.join(" ; ")}</Text>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ApiOperation({ op }: { op: OperationView }) {
  return (
    <article id={op.id} className="rounded-lg border border-ink/10 bg-white p-4 md:p-5" aria-labelledby={`${op.id}-titre`}>
      <h3 id={`${op.id}-titre`} className="flex flex-wrap items-baseline gap-2 text-base">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold ${METHOD_STYLE[op.method] ?? "bg-sand"}`}>
          {op.method}
        </span>
        <code className="font-mono text-sm font-semibold">{op.path}</code>
      </h3>
      <p className="mt-2">{op.summary}</p>
      <dl className="mt-2 flex flex-wrap gap-x-2 text-sm">
        <dt className="font-semibold">Accès :</dt>
        <dd data-testid="auth">{op.authLabel}</dd>
      </dl>
      {op.description.map((d) => (
        <p key={d} className="mt-2 text-sm text-ink-soft">
          <Text>{d}</Text>
        </p>
      ))}
      {op.params.length > 0 ? <FieldTable caption="Paramètres" fields={op.params} /> : null}
      {op.body ? (
        op.body.length > 0 ? (
          <FieldTable caption="Corps JSON" fields={op.body} />
        ) : (
          <p className="mt-3 text-sm">
            <span className="font-semibold">Corps JSON :</span> objet libre
          </p>
        )
      ) : null}
      <h4 className="mt-4 text-sm font-semibold">Réponses</h4>
      <ul className="mt-1 space-y-1 text-sm">
        {op.responses.map((r) => (
          <li key={r.status}>
            <span
              className={`mr-2 inline-block min-w-[2.5rem] rounded px-1 text-center font-mono text-xs font-bold ${r.isError ? "bg-rose-50 text-rose-700" : "bg-sage-100 text-sage-700"}`}
            >
              {r.status}
            </span>
            <Text>{r.description}</Text>
            {r.headers.length > 0 ? <span className="text-ink-soft"> (en-têtes : {r.headers.join(", ")})</span> : null}
            {r.fields.length > 0 ? <FieldTable caption={`Corps de la réponse ${r.status}`} fields={r.fields} /> : null}
          </li>
        ))}
      </ul>
    </article>
  );
}
