import { useEffect } from 'react';
import { useApp } from './app-context';

/** Every route's title is '{page} / {company}' (spec section 2). */
export function pageTitle(page: string, company: string): string {
  return company ? `${page} / ${company}` : page;
}

export function usePageTitle(page: string): void {
  const { config } = useApp();
  useEffect(() => {
    document.title = pageTitle(page, config.company);
  }, [page, config.company]);
}
