import { Link } from "@remix-run/react";
import { stepHref, type CartStep } from "./steps";

/** In the drawer a step is local state; on the /panier page it is the URL (works without JavaScript). */
export type StepNavigation = { mode: "page" } | { mode: "drawer"; go: (step: CartStep) => void };

export function StepLink({
  step,
  nav,
  className,
  children,
  testId,
}: {
  step: CartStep;
  nav: StepNavigation;
  className?: string;
  children: React.ReactNode;
  testId?: string;
}) {
  if (nav.mode === "page") {
    return (
      <Link to={stepHref(step)} className={className} data-testid={testId} preventScrollReset={false}>
        {children}
      </Link>
    );
  }
  return (
    <button type="button" onClick={() => nav.go(step)} className={className} data-testid={testId}>
      {children}
    </button>
  );
}
