import { getFormProps, type FormMetadata } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { buttonDanger, buttonPrimary, buttonSecondary, Notice, PageHeader } from "./ui";

/**
 * The back office's new and edit pages (products, users): the page around the form, and the
 * form itself with its submit button and 'Annuler'.
 */

/** The page: its title, the link back to the list, the edit page's 'Supprimer', a whole-form error, then the form. */
export function AdminFormPage({
  title,
  back,
  deleteTo,
  error,
  children,
}: {
  title: string;
  back: { to: string; label: string };
  /** The list's delete confirmation for this record (edit pages). */
  deleteTo?: string | null;
  error?: string | null;
  children: React.ReactNode;
}) {
  return (
    <>
      <PageHeader
        title={title}
        back={back}
        actions={
          deleteTo ? (
            <Link to={deleteTo} className={buttonDanger}>
              Supprimer
            </Link>
          ) : null
        }
      />
      {error ? <Notice>{error}</Notice> : null}
      {children}
    </>
  );
}

/** The Conform form: its fields, then the submit button ('Enregistrement...' while it posts) and 'Annuler' back to `cancelTo`. */
export function AdminForm<Schema extends Record<string, unknown>>({
  form,
  submitLabel,
  cancelTo,
  children,
}: {
  form: FormMetadata<Schema>;
  submitLabel: string;
  cancelTo: string;
  children: React.ReactNode;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  return (
    <Form method="post" {...getFormProps(form)}>
      {children}
      <div className="mt-6 flex flex-wrap gap-2">
        <button type="submit" className={buttonPrimary} disabled={pending}>
          {pending ? "Enregistrement..." : submitLabel}
        </button>
        <Link to={cancelTo} className={buttonSecondary}>
          Annuler
        </Link>
      </div>
    </Form>
  );
}
