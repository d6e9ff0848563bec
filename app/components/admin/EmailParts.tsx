import { Form, useNavigation } from "@remix-run/react";
import { EMAIL_KIND_LABELS, EMAIL_STATUS_LABELS, type EmailKind, type EmailStatus } from "~/lib/email-kinds";
import { Badge, buttonSmall, type Tone } from "./ui";

/** The pieces the mailbox list, an email's page and an order's page share. */

const STATUS_TONES: Record<EmailStatus, Tone> = {
  pending: "yellow",
  sending: "blue",
  sent: "green",
  failed: "red",
  canceled: "gray",
};

export function EmailStatusBadge({ status }: { status: EmailStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{EMAIL_STATUS_LABELS[status]}</Badge>;
}

export function emailKindLabel(kind: string): string {
  return EMAIL_KIND_LABELS[kind as EmailKind] ?? kind;
}

/**
 * The status badge with, for a failed email or a pending one that already failed once, its
 * number of attempts and its last error; for an email not sent, why.
 */
export function EmailStatusDetail({ email }: { email: { status: EmailStatus; attempts: number; lastError: string | null } }) {
  const showError = email.lastError && (email.status === "failed" || email.status === "pending");
  return (
    <div className="flex flex-col items-start gap-1">
      <EmailStatusBadge status={email.status} />
      {email.status === "canceled" && email.lastError ? (
        <span className="max-w-[18rem] whitespace-normal break-words text-xs text-ink-soft">{email.lastError}</span>
      ) : null}
      {showError ? (
        <>
          <span className="text-xs text-ink-soft">
            {email.attempts} tentative{email.attempts > 1 ? "s" : ""}
          </span>
          <span className="max-w-[18rem] whitespace-normal break-words text-xs text-red-800" title={email.lastError ?? undefined}>
            {email.lastError}
          </span>
        </>
      ) : null}
    </div>
  );
}

/**
 * 'Renvoyer' of a failed email: a POST form with the 'resend' intent, posted to `action` (the
 * current page by default) and coming back to `redirectTo`. Works without JavaScript.
 */
export function ResendEmailForm({
  id,
  redirectTo,
  action,
  className = buttonSmall,
}: {
  id: number;
  redirectTo: string;
  action?: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const sending = navigation.formData?.get("intent") === "resend" && navigation.formData?.get("id") === String(id);
  return (
    <Form method="post" action={action} preventScrollReset>
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button type="submit" className={className} disabled={sending} aria-label={`Renvoyer l'email ${id}`}>
        {sending ? "Envoi..." : "Renvoyer"}
      </button>
    </Form>
  );
}
