import { type ReactNode, useEffect } from 'react';

/**
 * How the server marks a page whose first screen it drew (apps/server/src/http/index-page.ts):
 * `#root` holds the HTML and carries this attribute, with `inert` and `aria-disabled` until the
 * app has taken the HTML over. A press or a keystroke before that would fall on HTML without its
 * handlers and be lost; inert, the page says so to the browser (and to a test's actions, which
 * wait for it to be usable).
 */
const DRAWN_ATTRIBUTE = 'data-server-drawn';

export function drawnByServer(container: HTMLElement): boolean {
  return container.hasAttribute(DRAWN_ATTRIBUTE);
}

function Usable({ container, children }: { container: HTMLElement; children: ReactNode }) {
  // an effect runs once React has hydrated the whole tree under it
  useEffect(() => {
    container.removeAttribute('inert');
    container.removeAttribute('aria-disabled');
    container.removeAttribute(DRAWN_ATTRIBUTE);
  }, [container]);
  return children;
}

/** `root`, which makes the server's HTML usable once React has hydrated it. */
export function onceHydrated(container: HTMLElement, root: ReactNode): ReactNode {
  return <Usable container={container}>{root}</Usable>;
}
