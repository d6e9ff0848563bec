import { Link } from "@remix-run/react";

/** The live dashboard's warning: one line for each administrator whose account has no second factor. */
export function SecondFactorWarning({ admins, currentId }: { admins: { id: number; username: string }[]; currentId: number }) {
  if (admins.length === 0) return null;
  return (
    <div
      role="alert"
      className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 sm:p-5"
      data-testid="second-factor-warning"
    >
      <ul className="space-y-2">
        {admins.map((admin) => (
          <li key={admin.id}>
            <strong className="font-semibold">Activez la double authentification du compte « {admin.username} »</strong> : il peut
            rembourser des commandes et effacer des clients avec son seul mot de passe.{" "}
            {admin.id === currentId ? (
              <Link to="/admin/securite" className="font-medium underline underline-offset-2">
                Activer pour mon compte
              </Link>
            ) : (
              <span>À faire par cet administrateur, depuis sa page « Sécurité ».</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
