import { useEffect, useState } from "react";

let hydrating = true;

/** False during the server render and the hydrating render, true once React runs in the browser. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(() => !hydrating);
  useEffect(() => {
    hydrating = false;
    setHydrated(true);
  }, []);
  return hydrated;
}
