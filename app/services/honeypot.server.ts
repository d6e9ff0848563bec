/** True when the hidden anti-bot field was filled in. */
export function isHoneypotFilled(formData: FormData) {
  const value = formData.get("website");
  return typeof value === "string" && value.trim() !== "";
}
