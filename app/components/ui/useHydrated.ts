import { useContext, useEffect, useState } from "react";
import { DeferredHydrationContext, pageHydrated } from "./hydration";

/**
 * False during the server render and the first (hydrating) client render, true afterwards.
 * Widgets render a no-JavaScript version first (e.g. <details>) and switch to their
 * scripted version once React runs; after the first hydration new mounts start scripted.
 */
export function useHydrated() {
  const deferredHydration = useContext(DeferredHydrationContext);
  const [hydrated, setHydrated] = useState(() => pageHydrated() && !deferredHydration);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
