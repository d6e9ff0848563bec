import { CART_STEPS, isStepReachable, type CartStep } from "./steps";
import { StepLink, type StepNavigation } from "./StepLink";
import type { ClientCart } from "./useOptimisticCart";

/** The three steps; done ones are links back, the current one is marked aria-current. */
export function CartSteps({ step, cart, nav }: { step: CartStep; cart: ClientCart | null | undefined; nav: StepNavigation }) {
  const current = CART_STEPS.findIndex((s) => s.id === step);
  return (
    <nav aria-label="Étapes de la commande">
      <ol className="flex items-start gap-1 text-xs sm:text-sm">
        {CART_STEPS.map((s, index) => {
          const state = index < current ? "done" : index === current ? "current" : "later";
          const reachable = state !== "current" && isStepReachable(s.id, cart);
          const content = (
            <>
              <span
                aria-hidden="true"
                className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                  state === "current"
                    ? "bg-rose-600 text-white"
                    : state === "done"
                      ? "bg-sage-100 text-sage-700"
                      : "border border-ink/20 bg-white text-ink-soft"
                }`}
              >
                {state === "done" ? "✓" : index + 1}
              </span>
              <span className={`leading-tight ${state === "current" ? "font-semibold text-ink" : "text-ink-soft"}`}>
                <span className="sr-only">Étape {index + 1} : </span>
                {s.title}
              </span>
            </>
          );
          return (
            <li key={s.id} aria-current={state === "current" ? "step" : undefined} className="flex flex-1 items-start">
              {reachable ? (
                <StepLink
                  step={s.id}
                  nav={nav}
                  className="flex min-h-11 items-center gap-2 rounded-lg p-1 text-left hover:bg-sand"
                >
                  {content}
                </StepLink>
              ) : (
                <span className="flex min-h-11 items-center gap-2 p-1">{content}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
