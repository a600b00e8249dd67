import { useEffect } from 'react';
import { useApp } from './app-context';

/** Every route's title is '{page} / {company}' (spec section 2). */
export function pageTitle(page: string, company: string): string {
  return company ? `${page} / ${company}` : page;
}

/** While the server draws a page: the title its first screen names (no effect runs there). */
let drawnTitle: { value: string | null } | null = null;

/**
 * Runs a server's render (src/server/render-page.tsx) and says the title the browser would give
 * the tab after it: the outermost page that names one, as the browser runs a parent's effect
 * after its children's (the layout's "loading" over the view's own title).
 */
export function renderWithTitle(render: () => string): { html: string; title: string | null } {
  drawnTitle = { value: null };
  try {
    const html = render();
    return { html, title: drawnTitle.value };
  } finally {
    drawnTitle = null;
  }
}

/** Sets the tab's title; null leaves it to whoever sets it next (the page a frame waits for). */
export function usePageTitle(page: string | null): void {
  const { config } = useApp();
  if (drawnTitle && page !== null) drawnTitle.value ??= pageTitle(page, config.company);
  useEffect(() => {
    if (page !== null) document.title = pageTitle(page, config.company);
  }, [page, config.company]);
}
