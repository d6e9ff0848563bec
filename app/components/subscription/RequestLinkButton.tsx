import { Form, useLocation, useNavigation } from "@remix-run/react";

/**
 * One button that asks the shop to email a fresh management link to the subscription's own
 * address (the order's page, the pay page): it posts to the page itself, with or without JavaScript.
 */
export function RequestLinkButton({ label, refused }: { label: string; refused?: string | null }) {
  const navigation = useNavigation();
  const location = useLocation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "manage-link";
  return (
    <Form method="post" action={`${location.pathname}${location.search}`} className="flex flex-col gap-2">
      <input type="hidden" name="intent" value="manage-link" />
      <button type="submit" className="btn-secondary" disabled={sending} data-testid="request-manage-link">
        {sending ? "Envoi..." : label}
      </button>
      {refused ? (
        <p role="alert" className="text-sm text-rose-700" data-testid="request-manage-link-refused">
          {refused}
        </p>
      ) : null}
    </Form>
  );
}
