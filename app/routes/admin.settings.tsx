import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { buttonPrimary, Card, PageHeader, selectClass } from "~/components/admin/ui";
import { getInputProps } from "@conform-to/react";
import { Field, FieldError, TextareaField } from "~/components/ui/Field";
import { toParisLocalInput } from "~/lib/dates";
import { trialOfferBannerText } from "~/lib/offer-banner";
import { showToast } from "~/components/ui/Toaster";
import { requireAdmin } from "~/http/admin-guard.server";
import { requireSameOriginForm } from "~/http/api.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { CARRIERS, CARRIER_LABELS } from "~/lib/carriers";
import { pageMeta } from "~/lib/meta";
import { usePublicConfig } from "~/lib/public-config";
import { EMAIL_RETENTION_DAYS, settingsSchema } from "~/schemas/settings";
import { notificationSettingsSchema } from "~/schemas/notification-settings";
import {
  DAILY_SUMMARY_HOUR,
  OWNER_NOTIFICATION_LABELS,
  OWNER_NOTIFICATION_SETTINGS,
  type NotificationSettings,
} from "~/lib/owner-notifications";
import { getNotificationSettings, updateNotificationSettings } from "~/services/email/owner-notifications.server";
import { getSettings, updateSettings } from "~/services/settings.server";
import { readPageForm } from "~/http/page-form.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Paramètres du site",
    "Nom, coordonnées, identité de la société, hébergeur, médiateur et transporteur de la boutique.",
  );

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const settings = await getSettings();
  return data(
    {
      settings: {
        ...settings,
        trialOfferEndsAt: toParisLocalInput(settings.trialOfferEndsAt),
        emailContentRetentionDays: String(settings.emailContentRetentionDays),
      },
      notifications: await getNotificationSettings(),
      banner: trialOfferBannerText(settings.trialOfferEndsAt),
    },
    { headers: NO_STORE_HEADERS },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOriginForm(request);
  await requireAdmin(request);
  const form = await readPageForm(request);
  if (form.get("intent") === "notifications") return await saveNotifications(form);
  const submission = parseWithZod(form, { schema: settingsSchema });
  if (submission.status !== "success") {
    const message = Object.values(submission.error ?? {}).flat()[0] ?? "données invalides";
    return data(
      {
        result: submission.reply(),
        toast: {
          message: "Erreur",
          description: `Impossible de mettre à jour les paramètres : ${message}`,
          type: "error" as const,
        },
      },
      { status: 400 },
    );
  }
  await updateSettings(submission.value);
  return redirectWithSuccess("/admin/settings", {
    message: "Paramètres mis à jour",
    description: "Les paramètres du site ont été mis à jour avec succès.",
  });
}

/** The « Notifications » form: each box left unticked switches its email off. */
async function saveNotifications(form: FormData) {
  const submission = notificationSettingsSchema.safeParse(Object.fromEntries(form));
  if (!submission.success)
    return redirectWithError("/admin/settings#notifications", {
      message: "Erreur",
      description: `Impossible d'enregistrer les notifications : ${submission.error.issues[0]?.message ?? "données invalides"}`,
    });
  const saved = await updateNotificationSettings(submission.data);
  return redirectWithSuccess("/admin/settings#notifications", {
    message: "Notifications enregistrées",
    description: saved.notifyDailySummary
      ? `Elles vous seront envoyées en un résumé quotidien, chaque matin à ${DAILY_SUMMARY_HOUR} h (heure de Paris).`
      : "Chaque notification cochée vous est envoyée dès que l'événement arrive.",
  });
}

export default function AdminSettings() {
  const { settings, banner, notifications } = useLoaderData<typeof loader>();
  const demo = usePublicConfig()?.mode === "demo";
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending =
    navigation.state !== "idle" &&
    navigation.formAction === "/admin/settings" &&
    navigation.formData?.get("intent") !== "notifications";

  useEffect(() => {
    if (actionData?.toast) showToast(actionData.toast);
  }, [actionData]);

  const [form, fields] = useForm({
    id: "site-settings",
    lastResult: actionData?.result,
    defaultValue: settings,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: settingsSchema }),
  });

  return (
    <>
      <PageHeader title="Paramètres du site" back={{ to: "/admin/dashboard", label: "Retour au tableau de bord" }} />
      <Form method="post" {...getFormProps(form)}>
        <div className="grid gap-6 xl:grid-cols-2">
          <Card title="Paramètres généraux">
            <Field label="Nom du site" field={fields.siteName} />
            <Field label="Email du site" field={fields.siteEmail} type="email" autoComplete="off" />
            <TextareaField label="Description du site" field={fields.siteDescription} rows={4} />
          </Card>
          <Card title="Coordonnées">
            <TextareaField label="Adresse du siège social" field={fields.siteAddress} rows={3} />
            <Field label="Téléphone" field={fields.sitePhone} type="tel" autoComplete="off" />
            <TextareaField label="Texte du pied de page" field={fields.siteFooterText} rows={2} />
          </Card>
          <Card title="Identité de la société" className="xl:col-span-2">
            <p className="mb-3 text-sm text-ink-soft">
              Affichée dans les mentions légales, les conditions générales de vente et les emails de confirmation, et imprimée sur
              chaque facture et chaque avoir avec l'adresse du siège ci-dessus. Une facture déjà émise garde les informations de
              sa date d'émission.
            </p>
            {demo ? (
              <p
                className="mb-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
                data-testid="demo-seller-note"
              >
                Boutique de démonstration : ces informations sont celles d'une société fictive. Remplacez-les par celles de votre
                société avant votre première vente.
              </p>
            ) : null}
            <div className="grid gap-x-4 sm:grid-cols-2">
              <Field label="Raison sociale" field={fields.legalName} autoComplete="off" />
              <Field
                label="Forme juridique"
                field={fields.legalForm}
                autoComplete="off"
                hint="Par exemple « SAS » ou « société par actions simplifiée »."
              />
              <Field
                label="Capital social"
                field={fields.shareCapital}
                autoComplete="off"
                hint="Montant en euros, par exemple 10 000 €."
              />
              <Field
                label="SIRET"
                field={fields.siret}
                autoComplete="off"
                inputMode="numeric"
                hint="14 chiffres ; le SIREN en est les 9 premiers."
              />
              <Field
                label="Ville du greffe (RCS)"
                field={fields.rcsCity}
                autoComplete="off"
                hint="Par exemple Paris : « RCS Paris »."
              />
              <Field
                label="Numéro RCS"
                field={fields.rcsNumber}
                autoComplete="off"
                inputMode="numeric"
                hint="Le SIREN : les 9 premiers chiffres du SIRET."
              />
              <Field
                label="Numéro de TVA intracommunautaire"
                field={fields.vatNumber}
                autoComplete="off"
                hint="Code du pays puis le numéro, par exemple FR51 921 458 303."
              />
              <div className="hidden sm:block" aria-hidden="true" />
              <Field label="Directeur ou directrice de la publication" field={fields.publicationDirector} autoComplete="off" />
              <Field
                label="Fonction (facultatif)"
                field={fields.publicationDirectorRole}
                autoComplete="off"
                hint="Par exemple Présidente."
              />
            </div>
          </Card>
          <Card title="Hébergeur">
            <p className="mb-3 text-sm text-ink-soft">La société qui héberge le site, citée dans les mentions légales.</p>
            <Field label="Nom de l'hébergeur" field={fields.hostName} autoComplete="off" />
            <TextareaField label="Adresse de l'hébergeur" field={fields.hostAddress} rows={3} />
            <Field label="Téléphone de l'hébergeur" field={fields.hostPhone} type="tel" autoComplete="off" />
          </Card>
          <Card title="Médiateur de la consommation">
            <p className="mb-3 text-sm text-ink-soft">
              Le médiateur auquel vos clients peuvent recourir gratuitement en cas de litige : cité dans les conditions générales
              de vente, les mentions légales, la page de confirmation et le suivi de commande.
            </p>
            <Field label="Nom du médiateur" field={fields.mediatorName} autoComplete="off" />
            <TextareaField label="Adresse postale du médiateur" field={fields.mediatorAddress} rows={3} />
            <Field
              label="Site web du médiateur"
              field={fields.mediatorUrl}
              type="text"
              inputMode="url"
              autoComplete="off"
              hint="Adresse complète, commençant par https://"
            />
          </Card>
          <Card title="Expédition">
            <label htmlFor={fields.defaultCarrier.id} className="block text-sm font-medium">
              Transporteur par défaut
            </label>
            <select
              {...getSelectProps(fields.defaultCarrier)}
              key={fields.defaultCarrier.key}
              className={`${selectClass} mt-1 w-full py-2.5`}
            >
              {CARRIERS.map((c) => (
                <option key={c} value={c}>
                  {CARRIER_LABELS[c]}
                </option>
              ))}
            </select>
            <p className="mt-1 text-sm text-ink-soft">Proposé pour chaque numéro de suivi ; modifiable commande par commande.</p>
            <FieldError id={fields.defaultCarrier.errorId} errors={fields.defaultCarrier.errors} />
          </Card>
          <Card title="Offre d'essai">
            <label htmlFor={fields.trialOfferEndsAt.id} className="block text-sm font-medium text-ink">
              Fin de l'offre d'essai (heure de Paris)
            </label>
            <input
              {...getInputProps(fields.trialOfferEndsAt, { type: "datetime-local", ariaAttributes: true })}
              key={fields.trialOfferEndsAt.key}
              aria-describedby={`${fields.trialOfferEndsAt.id}-hint ${fields.trialOfferEndsAt.errorId}`}
              className="field-input mt-1"
            />
            <p id={`${fields.trialOfferEndsAt.id}-hint`} className="mt-1 text-xs text-ink-soft">
              La fiche produit affiche « Fin de l'offre d'essai dans … » jusqu'à cette date. À cette date, le bandeau disparaît et
              le pack d'essai n'est plus vendu (fiche produit, panier, API). Indiquez la date réelle de fin de l'offre : annoncer
              une fin qui n'arrive pas est une pratique commerciale trompeuse (Code de la consommation, article L121-2). Laissez
              vide pour une offre sans date de fin, sans bandeau.
            </p>
            <FieldError id={fields.trialOfferEndsAt.errorId} errors={fields.trialOfferEndsAt.errors} />
            <p className="mt-2 text-sm text-ink" data-testid="banner-preview">
              {banner ? `Bandeau affiché aujourd'hui : « ${banner} »` : "Aucun bandeau n'est affiché en ce moment."}
            </p>
          </Card>
          <Card title="Emails envoyés">
            <label htmlFor={fields.emailContentRetentionDays.id} className="block text-sm font-medium text-ink">
              Conservation du contenu des emails envoyés (jours)
            </label>
            <input
              {...getInputProps(fields.emailContentRetentionDays, { type: "number", ariaAttributes: true })}
              key={fields.emailContentRetentionDays.key}
              inputMode="numeric"
              aria-describedby={`${fields.emailContentRetentionDays.id}-hint ${fields.emailContentRetentionDays.errorId}`}
              className="field-input mt-1"
            />
            <p id={`${fields.emailContentRetentionDays.id}-hint`} className="mt-1 text-xs text-ink-soft">
              Passé ce délai, le texte des emails envoyés est supprimé ; leur trace (destinataire, date, objet, commande) est
              gardée. Les conditions de vente jointes sont refaites à la demande. Entre {EMAIL_RETENTION_DAYS.min} et{" "}
              {EMAIL_RETENTION_DAYS.max} jours ; {EMAIL_RETENTION_DAYS.default} si le champ est vide.
            </p>
            <FieldError id={fields.emailContentRetentionDays.errorId} errors={fields.emailContentRetentionDays.errors} />
          </Card>
        </div>
        <div className="mt-6">
          <button type="submit" className={buttonPrimary} disabled={pending}>
            {pending ? "Enregistrement..." : "Enregistrer les paramètres"}
          </button>
        </div>
      </Form>
      <NotificationsForm settings={notifications} siteEmail={settings.siteEmail} />
    </>
  );
}

function NotificationsForm({ settings, siteEmail }: { settings: NotificationSettings; siteEmail: string }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "notifications";
  return (
    <div id="notifications" className="mt-8 scroll-mt-6">
      <Card title="Notifications">
        <Form method="post" aria-labelledby="notifications-title">
          <input type="hidden" name="intent" value="notifications" />
          <p id="notifications-title" className="mb-3 text-sm text-ink-soft">
            Les emails envoyés à l'adresse du site ({siteEmail}) quand un événement demande votre attention. Décochez ceux que
            vous ne voulez pas recevoir.
          </p>
          <fieldset>
            <legend className="sr-only">Emails envoyés à la boutique</legend>
            <ul className="space-y-3">
              {OWNER_NOTIFICATION_SETTINGS.map((name) => (
                <li key={name} className="flex items-start gap-3">
                  <input
                    type="checkbox"
                    id={`notification-${name}`}
                    name={name}
                    defaultChecked={settings[name]}
                    aria-describedby={`notification-${name}-hint`}
                    className="mt-1 size-4 shrink-0"
                  />
                  <label htmlFor={`notification-${name}`} className="text-sm">
                    <span className="block font-medium text-ink">{OWNER_NOTIFICATION_LABELS[name].label}</span>
                    <span id={`notification-${name}-hint`} className="block text-ink-soft">
                      {OWNER_NOTIFICATION_LABELS[name].hint}
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <div className="mt-5 flex items-start gap-3 border-t border-slate-200 pt-4">
            <input
              type="checkbox"
              id="notification-notifyDailySummary"
              name="notifyDailySummary"
              defaultChecked={settings.notifyDailySummary}
              aria-describedby="notification-notifyDailySummary-hint"
              className="mt-1 size-4 shrink-0"
            />
            <label htmlFor="notification-notifyDailySummary" className="text-sm">
              <span className="block font-medium text-ink">Résumé quotidien</span>
              <span id="notification-notifyDailySummary-hint" className="block text-ink-soft">
                Un seul email chaque matin à {DAILY_SUMMARY_HOUR} h (heure de Paris) avec les événements arrivés depuis la veille
                à {DAILY_SUMMARY_HOUR} h, au lieu d'un email par événement. Aucun email les jours sans événement. Les échéances,
                comme les 14 jours pour rembourser une rétractation, y figurent.
              </span>
            </label>
          </div>
          <button type="submit" className={`${buttonPrimary} mt-5`} disabled={pending}>
            {pending ? "Enregistrement..." : "Enregistrer les notifications"}
          </button>
        </Form>
      </Card>
    </div>
  );
}
