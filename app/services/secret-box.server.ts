import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getConfig } from "~/config.server";

/**
 * Small secrets the shop must read back (an administrator's TOTP secret), encrypted at rest with
 * AES-256-GCM. The key is derived from the session secret by HKDF-SHA256 with a purpose of its
 * own, so it is never the key that signs the cookies. `context` (e.g. the user id) is bound to the
 * ciphertext as associated data: a value copied onto another row does not decrypt.
 *
 * Rotation: the first session secret encrypts; every one in SESSION_SECRET's list is tried to
 * decrypt. A secret dropped from the list makes its values unreadable: keep the old one listed
 * until every administrator has enrolled again (or used a recovery code to turn the factor off).
 */

const VERSION = "v1";
const PURPOSE = "maison-eclat/secret-box/v1";

const keys = new Map<string, Buffer>();
function keyFor(sessionSecret: string): Buffer {
  let key = keys.get(sessionSecret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", sessionSecret, "", PURPOSE, 32));
    keys.set(sessionSecret, key);
  }
  return key;
}

/** `v1.iv.tag.ciphertext` (base64url parts). */
export function sealSecret(plaintext: string, context: string, secrets = getConfig().sessionSecrets): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(secrets[0]), iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The plaintext, or null when no session secret opens it (rotated away, altered, or another context). */
export function openSecret(sealed: string, context: string, secrets = getConfig().sessionSecrets): string | null {
  const [version, iv, tag, ciphertext, ...rest] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) return null;
  for (const secret of secrets) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", keyFor(secret), Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    } catch {
      // Not this secret: try the next one.
    }
  }
  return null;
}
