import { createRoot } from 'react-dom/client';
import { prefetchConfig, prefetchPermissions, prefetchUserInfo, queryClient } from './app/query-client';
import { Root } from './app/root';
import { setForcedLanguage } from './lib/api-client';
import { initI18n } from './lib/i18n';
import { forcedLanguageFromUrl, initialLanguage, writeLanguageCookie } from './lib/language';

const forced = forcedLanguageFromUrl();
if (forced) {
  writeLanguageCookie(forced);
  setForcedLanguage(forced);
}
const language = initialLanguage();
// The configuration, the session, the texts and the stylesheets load side by side; the first
// render waits for the texts and the stylesheets. A user's permissions follow the session's answer.
prefetchConfig(language);
void prefetchUserInfo().then(() => prefetchPermissions(window.location.pathname));

void Promise.all([initI18n(language), import('./app/styles')]).then(() => {
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root');
  createRoot(container).render(<Root initialLanguage={language} queryClient={queryClient} />);
});
