import { type ComponentType, lazy, type ReactNode, useState } from 'react';

/** A page whose code is its own chunk: the component to render, and the loader the boot may call early. */
export interface LazyPage {
  Page: ComponentType<{ children?: ReactNode }>;
  /** Loads the page's code (once; a failed load may be tried again). */
  load: () => Promise<unknown>;
  /**
   * The modules `load` imports, as the build's manifest names them: written by the server's build
   * (page-modules-plugin.ts), so a signed-in page links their chunks; empty in the browser's.
   */
  modules: readonly string[];
}

type PageModule = { default: ComponentType<{ children?: ReactNode }> };

/**
 * Like React's `lazy`, but a page whose code has already arrived renders at once instead of
 * suspending. React's `lazy` suspends on its first render even when the code is in, and React
 * throttles the reveal of a Suspense boundary's content to 300 ms after its fallback showed: the
 * layout, then the view, each lost up to 300 ms that way on a signed-in page's first visit
 * (docs/WEB.md, "A view's code and first data at once"). The boot loads the address's code before
 * the first render (`preloadRoute`), so those pages never suspend; any other page loads as a lazy
 * one does.
 */
export function lazyPage(importer: () => Promise<PageModule>, modules: readonly string[] = []): LazyPage {
  let loaded: PageModule['default'] | null = null;
  let pending: Promise<PageModule> | null = null;
  const load = () => {
    pending ??= importer().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(load);
  function Page(props: { children?: ReactNode }) {
    // chosen once per mount, so a mounted page never changes its component type (and state)
    const [Component] = useState<ComponentType<{ children?: ReactNode }>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return { Page, load, modules };
}
