import { Form, Link } from "@remix-run/react";
import { Dialog } from "./Dialog";
import { buttonDanger, buttonSecondary } from "./ui";

/**
 * The back office's delete confirmation: a dialog driven by the URL (works without
 * JavaScript) with the question, 'Annuler' back to the list and a 'Supprimer' form.
 */
export function DeleteConfirmation({
  closeTo,
  action,
  id,
  deleting,
  children,
}: {
  closeTo: string;
  action: string;
  id: number;
  deleting: boolean;
  children: React.ReactNode;
}) {
  return (
    <Dialog title="Confirmer la suppression" closeTo={closeTo} role="alertdialog" maxWidth="max-w-md">
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
