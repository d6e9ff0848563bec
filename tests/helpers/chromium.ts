import { existsSync } from "node:fs";

/**
 * Debian's Chromium: its headless shell when installed (`chromium-headless-shell`, faster), else
 * the browser itself. CHROMIUM_PATH chooses another one.
 */
export function chromiumPath(): string {
  return (
    process.env.CHROMIUM_PATH ??
    (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium")
  );
}
