import type { Email, EmailAttachment, EmailAttachmentRef } from "~/db/schema";
import { shopOf, termsAttachment } from "./render.server";

/**
 * An email's attachments are not stored: the outbox keeps what they were (`attachment_refs`,
 * the terms of sale of a version) and the files are rebuilt from it when the email is sent,
 * sent again or opened in the back office. A version of the terms never changes, so the file
 * rebuilt is the one the customer received (with the shop's contact details of today).
 * An email sent before references were kept may still hold its files (`attachments`) until
 * the retention purge deletes its content.
 */

/** The files an email's references name, rebuilt now. */
export async function rebuildAttachments(refs: EmailAttachmentRef[]): Promise<EmailAttachment[]> {
  if (refs.length === 0) return [];
  const shop = await shopOf();
  return refs.map((ref) => {
    const { version: _version, ...file } = termsAttachment(shop, ref.version);
    return file;
  });
}

/** An email's attachments: the files still stored (an email from before references), then those rebuilt from its references. */
export async function attachmentsOf(row: Pick<Email, "attachments" | "attachmentRefs">): Promise<EmailAttachment[]> {
  const stored = Array.isArray(row.attachments) ? row.attachments : [];
  const refs = Array.isArray(row.attachmentRefs) ? row.attachmentRefs : [];
  return [...stored, ...(await rebuildAttachments(refs))];
}
