import { useEffect } from 'react';
import { useApp } from './app-context';

/** Every route's title is '{page} / {company}' (spec section 2). */
export function pageTitle(page: string, company: string): string {
  return company ? `${page} / ${company}` : page;
}

/** Sets the tab's title; null leaves it to whoever sets it next (the page a frame waits for). */
export function usePageTitle(page: string | null): void {
  const { config } = useApp();
  useEffect(() => {
    if (page !== null) document.title = pageTitle(page, config.company);
  }, [page, config.company]);
}
