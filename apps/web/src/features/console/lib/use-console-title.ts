import { useEffect } from 'react';
import { pageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';

/** '{page} / Panel247 console': the console is the provider's own, never a brand's. */
export function useConsoleTitle(page: string): void {
  const { t } = useTranslation();
  const console = t('console.title');
  useEffect(() => {
    document.title = pageTitle(page, console);
  }, [page, console]);
}
