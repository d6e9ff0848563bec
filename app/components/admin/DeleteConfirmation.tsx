import { Form, Link, useFormAction, useLocation, useNavigation } from "@remix-run/react";
import { Dialog } from "./Dialog";
import { buttonDanger, buttonSecondary } from "./ui";

/**
 * The back office's delete confirmation, opened on a list page by ?delete={id}: a dialog driven
 * by the URL (works without JavaScript) asking "Êtes-vous sûr de vouloir supprimer {subject} ?",
 * with `children` as details, 'Annuler' back to the list and a 'Supprimer' form posting
 * intent=delete to the list page's own action ('Suppression...' while it posts).
 * With a `refusal`, the dialog only says why this record cannot be deleted.
 */
export function DeleteConfirmation({
  id,
  subject,
  refusal,
  children,
}: {
  id: number;
  subject: React.ReactNode;
  refusal?: string | null;
  children?: React.ReactNode;
}) {
  const closeTo = useLocation().pathname;
  const action = useFormAction(".");
  const navigation = useNavigation();
  const deleting = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  if (refusal) {
    return (
      <Dialog title="Confirmer la suppression" closeTo={closeTo} role="alertdialog" maxWidth="max-w-md">
        <p>{refusal}</p>
      </Dialog>
    );
  }
  return (
    <Dialog title="Confirmer la suppression" closeTo={closeTo} role="alertdialog" maxWidth="max-w-md">
      <p>Êtes-vous sûr de vouloir supprimer {subject} ? Cette action est irréversible.</p>
      {children}
      <Form method="post" action={action} className="mt-6 flex flex-wrap justify-end gap-2" preventScrollReset>
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={id} />
        <Link to={closeTo} replace preventScrollReset className={buttonSecondary} data-autofocus>
          Annuler
        </Link>
        <button type="submit" className={buttonDanger} disabled={deleting}>
          {deleting ? "Suppression..." : "Supprimer"}
        </button>
      </Form>
    </Dialog>
  );
}
