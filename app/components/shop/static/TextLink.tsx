import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** An underlined link inside running text: internal paths use Remix's Link, the rest a plain anchor. */
export function TextLink({ to, children }: { to: string; children: ReactNode }) {
  const className = "font-medium text-ink underline decoration-rose-500/60 underline-offset-2 hover:text-rose-700";
  if (to.startsWith("/")) {
    return (
      <Link to={to} className={className}>
        {children}
      </Link>
    );
  }
  return (
    <a href={to} className={className} rel="noopener noreferrer">
      {children}
    </a>
  );
}
