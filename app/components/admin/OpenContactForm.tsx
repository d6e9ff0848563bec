import { Form } from "@remix-run/react";

/**
 * Opens a contact request in its dialog: a small form posting `intent=open` (the admin's own
 * action marks an unread request read; the page's loader and its 30-second refresh never do).
 * Works without JavaScript: the action redirects to /admin/contacts?id=... .
 */
export function OpenContactForm({
  id,
  className,
  label,
  title,
  children,
}: {
  id: number;
  className: string;
  label?: string;
  title?: string;
  children: React.ReactNode;
}) {
  return (
    <Form method="post" action="/admin/contacts" preventScrollReset className="block max-w-full">
      <input type="hidden" name="intent" value="open" />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={className} aria-label={label} title={title}>
        {children}
      </button>
    </Form>
  );
}
