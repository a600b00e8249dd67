import { useEffect } from 'react';

/**
 * How the server marks a page whose first screen it drew (apps/server/src/http/index-page.ts):
 * `#root` holds the HTML and carries this attribute, with `inert` and `aria-disabled` until the
 * app has taken the HTML over. A press or a keystroke before that would fall on HTML without its
 * handlers and be lost; inert, the page says so to the browser (and to a test's actions, which
 * wait for it to be usable).
 */
const DRAWN_ATTRIBUTE = 'data-server-drawn';

/** The drawn `#root` the app is taking over, until the view in it has hydrated. */
let takingOver: HTMLElement | null = null;

export function drawnByServer(container: HTMLElement): boolean {
  return container.hasAttribute(DRAWN_ATTRIBUTE);
}

/** Notes that the app hydrates `container`: it stays inert until the view's page has hydrated (`PageHydrated`). */
export function takeOver(container: HTMLElement): void {
  takingOver = container;
}

/**
 * Rendered last in the Suspense boundary of a route's innermost page (app/router.tsx): its effect
 * makes the drawn page usable. Not the root's effect: React hydrates the root first and leaves each
 * Suspense boundary of the server's HTML (the layout's, then the view's inside it) to later passes
 * at idle priority, so the root's effects ran while the view was still bare HTML. A language chosen
 * then, on a slow machine, was lost when the view hydrated over it. The innermost page hydrates
 * after every boundary around it.
 */
export function PageHydrated() {
  useEffect(() => {
    const container = takingOver;
    if (!container) return;
    takingOver = null;
    container.removeAttribute('inert');
    container.removeAttribute('aria-disabled');
    container.removeAttribute(DRAWN_ATTRIBUTE);
  }, []);
  return null;
}
