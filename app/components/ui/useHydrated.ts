import { createContext, useContext, useEffect, useState } from "react";

let hydrating = true;

/** True during the page's first (hydrating) client render: the server's HTML is being reused. */
export function isHydrating() {
  return typeof document !== "undefined" && hydrating;
}

/**
 * True inside a part of the page that hydrates after the rest (ui/deferred.tsx) while it has
 * not hydrated yet: its first render must match the server's HTML too.
 */
export const DeferredHydrationContext = createContext(false);

/**
 * False during the server render and the first (hydrating) client render, true afterwards.
 * Widgets render a no-JavaScript version first (e.g. <details>) and switch to their
 * scripted version once React runs; after the first hydration new mounts start scripted.
 */
export function useHydrated() {
  const deferredHydration = useContext(DeferredHydrationContext);
  const [hydrated, setHydrated] = useState(() => !hydrating && !deferredHydration);
  useEffect(() => {
    hydrating = false;
    setHydrated(true);
  }, []);
  return hydrated;
}

/** The parts of the page still waiting for their code after the first hydration (ui/deferred.tsx). */
const waiting = new Set<string>();
let rootHydrated = false;

function markWhenInteractive() {
  // Tests wait for this mark before clicking: every part of the page then answers.
  if (rootHydrated && waiting.size === 0) document.documentElement.dataset.hydrated = "true";
}

/** root.tsx, once the page has hydrated. */
export function markRootHydrated() {
  rootHydrated = true;
  markWhenInteractive();
}

/** A deferred part hydrating after the page: the page is interactive once it has (partHydrated). */
export function partWaiting(id: string) {
  waiting.add(id);
}

export function partHydrated(id: string) {
  waiting.delete(id);
  markWhenInteractive();
}
