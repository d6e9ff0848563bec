import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/http/admin-guard.server";
import { notFound } from "~/http/admin-pages.server";
import { pageIdOr404 } from "~/http/api.server";
import { NO_STORE } from "~/http/cache-control";
import { EMAIL_NOT_FOUND, getEmailAttachment } from "~/services/email/mailbox.server";

const ATTACHMENT_NOT_FOUND = "Pièce jointe introuvable";

/** A MIME type fit for a header (type/subtype, optional parameters, no line break), else a plain download. */
function safeContentType(value: string) {
  return /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=("[^"\r\n]*"|[\w.+-]+))*$/.test(value) ? value : "application/octet-stream";
}

/** Content-Disposition with the file's name: an ASCII fallback and its UTF-8 name (RFC 6266). */
function contentDisposition(filename: string) {
  const ascii =
    filename
      .normalize("NFKD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\]/g, "_")
      .trim() || "piece-jointe";
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * GET /admin/emails/{id}/attachments/{index}: an attachment of an email, as it was sent, as a
 * download (administrator only). It is never shown by the browser on our origin (attachment,
 * nosniff, and a sandboxing policy in case it were).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = pageIdOr404(params.id, EMAIL_NOT_FOUND);
  const index = params.index !== undefined && /^(0|[1-9]\d{0,3})$/.test(params.index) ? Number(params.index) : null;
  const attachment = index === null ? undefined : await getEmailAttachment(id, index);
  if (!attachment) throw notFound(ATTACHMENT_NOT_FOUND);
  return new Response(new Uint8Array(attachment.content), {
    headers: {
      "Content-Type": safeContentType(attachment.contentType),
      "Content-Disposition": contentDisposition(attachment.filename),
      "Content-Length": String(attachment.content.length),
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": NO_STORE,
    },
  });
}
