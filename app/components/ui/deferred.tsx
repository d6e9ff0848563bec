import { lazy, Suspense, useId, useEffect, useState, type ComponentType } from "react";
import { DeferredHydrationContext, isHydrating, partHydrated, partWaiting } from "./useHydrated";

type Loaded<P> = { default: ComponentType<P> };

/** A thenable that calls back at once: React.lazy then renders without suspending. */
function ready<T>(value: T): Promise<T> {
  return { then: (resolve: (v: T) => unknown) => resolve(value) } as Promise<T>;
}

/**
 * A part of a page whose code is not among the page's scripts. The server renders it with the
 * rest of the page (its module is loaded when the server starts), so its HTML arrives at once
 * and works as plain HTML (links, forms, <details>). In the browser its code is fetched while
 * the page hydrates; React keeps the server's HTML on screen and hydrates it in place when the
 * code arrives. Rendered after a client-side navigation, it waits for its code: the route
 * preloads it in its clientLoader (`preload`).
 */
export function deferred<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: Loaded<P> | undefined;
  let pending: Promise<Loaded<P>> | undefined;
  const preload = () => (pending ??= load().then((component) => (loaded = { default: component })));
  if (typeof document === "undefined") void preload();
  const Lazy = lazy(() => (loaded ? ready(loaded) : preload())) as unknown as ComponentType<P>;

  function Hydrated({ id }: { id: string }) {
    useEffect(() => partHydrated(id), [id]);
    return null;
  }

  function Deferred(props: P) {
    const id = useId();
    const [hydrating] = useState(isHydrating);
    if (hydrating) partWaiting(id);
    return (
      <DeferredHydrationContext.Provider value={hydrating}>
        <Suspense fallback={null}>
          <Lazy {...props} />
          {hydrating ? <Hydrated id={id} /> : null}
        </Suspense>
      </DeferredHydrationContext.Provider>
    );
  }
  return Object.assign(Deferred, { preload });
}
