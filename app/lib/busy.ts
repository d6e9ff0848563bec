/**
 * The answer when the database is saturated (a write waited too long for its lock): nothing was
 * written, the person tries again in a few seconds. Client-safe: the error pages read it.
 */
export const BUSY_CODE = "busy";
export const BUSY_MESSAGE =
  "Le site reçoit beaucoup de demandes en ce moment : votre demande n'a pas été enregistrée. Réessayez dans quelques secondes.";
/** The title of the error page that says it. */
export const BUSY_HEADING = "Le site est très demandé";
/** Sent as Retry-After. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** Whether a route's error (useRouteError) is this answer: a 503 whose body carries the code. */
export function isBusyAnswer(error: unknown): boolean {
  const answer = error as { status?: unknown; data?: unknown } | null;
  return answer?.status === 503 && (answer.data as { code?: unknown } | null)?.code === BUSY_CODE;
}
