import { getInputProps, useForm, type Submission, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Field, FieldError } from "~/components/ui/Field";
import { PASSWORD_MIN_LENGTH, userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { AdminForm } from "./AdminForm";
import { Card } from "./ui";

type UserFormDefaults = {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  postalCode: string;
  country: string;
  phone: string;
  isAdmin: boolean;
};

/** The user form of the new and edit pages. `self`: the administrator edits their own account. */
export function UserForm({
  mode,
  id,
  defaultValue,
  lastResult,
  self = false,
}: {
  mode: "create" | "edit";
  id: string;
  defaultValue: UserFormDefaults;
  lastResult?: SubmissionResult<string[]> | null;
  self?: boolean;
}) {
  const schema = mode === "create" ? userCreateSchema : userUpdateSchema;
  const [form, fields] = useForm<UserFormDefaults & { password?: string }, UserFormDefaults & { password?: string }>({
    id,
    lastResult,
    defaultValue,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as Submission<UserFormDefaults & { password?: string }>,
  });
  const adminProps = getInputProps(fields.isAdmin, { type: "checkbox" });
  return (
    <AdminForm
      form={form}
      submitLabel={mode === "create" ? "Créer l'utilisateur" : "Enregistrer les modifications"}
      cancelTo="/admin/users"
    >
      <div className="grid gap-6 xl:grid-cols-2">
        <Card title="Compte">
          <Field label="Nom d'utilisateur" field={fields.username} autoComplete="off" />
          <Field label="Email" field={fields.email} type="email" autoComplete="off" />
          <Field
            label={mode === "create" ? "Mot de passe" : "Nouveau mot de passe"}
            field={fields.password}
            type="password"
            autoComplete="new-password"
            hint={
              mode === "create"
                ? `Au moins ${PASSWORD_MIN_LENGTH} caractères.`
                : `Laissez vide pour garder le mot de passe actuel. Au moins ${PASSWORD_MIN_LENGTH} caractères.`
            }
          />
          <div className="mt-2">
            <div className="flex items-center gap-3">
              {self ? (
                <>
                  <input type="hidden" name={fields.isAdmin.name} value="on" />
                  <input
                    id={fields.isAdmin.id}
                    type="checkbox"
                    checked
                    disabled
                    aria-describedby={`${fields.isAdmin.id}-self`}
                    className="h-5 w-5 rounded border-slate-300"
                  />
                </>
              ) : (
                <input {...adminProps} key={adminProps.key} className="h-5 w-5 rounded border-slate-300 text-ink" />
              )}
              <label htmlFor={fields.isAdmin.id} className="text-sm font-medium">
                Administrateur (accès au back office)
              </label>
            </div>
            {self ? (
              <p id={`${fields.isAdmin.id}-self`} className="mt-1 text-xs text-ink-soft">
                Vous ne pouvez pas retirer vos propres droits d'administrateur.
              </p>
            ) : null}
            <FieldError id={fields.isAdmin.errorId} errors={fields.isAdmin.errors} />
          </div>
        </Card>
        <Card title="Coordonnées">
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field label="Prénom" field={fields.firstName} autoComplete="off" />
            <Field label="Nom" field={fields.lastName} autoComplete="off" />
            <Field label="Adresse" field={fields.address} autoComplete="off" className="sm:col-span-2" />
            <Field label="Code postal" field={fields.postalCode} autoComplete="off" />
            <Field label="Ville" field={fields.city} autoComplete="off" />
            <Field label="Pays" field={fields.country} autoComplete="off" />
            <Field label="Téléphone" field={fields.phone} type="tel" autoComplete="off" />
          </div>
        </Card>
      </div>
    </AdminForm>
  );
}
