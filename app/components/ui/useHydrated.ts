import { useEffect, useState } from "react";

let hydrating = true;

/**
 * False during the server render and the first (hydrating) client render, true afterwards.
 * Widgets render a no-JavaScript version first (e.g. <details>) and switch to their
 * scripted version once React runs; after the first hydration new mounts start scripted.
 */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(() => !hydrating);
  useEffect(() => {
    hydrating = false;
    setHydrated(true);
  }, []);
  return hydrated;
}
