import { createRoot } from 'react-dom/client';
import { prefetchConfig, prefetchPermissions, prefetchUserInfo, queryClient } from './app/query-client';
import { Root } from './app/root';
import { preloadRouteCode } from './app/router';
import { setForcedLanguage } from './lib/api-client';
import { seedBootData } from './lib/boot-data';
import { initI18n } from './lib/i18n';
import { forcedLanguageFromUrl, initialLanguage, writeLanguageCookie } from './lib/language';

const forced = forcedLanguageFromUrl();
if (forced) {
  writeLanguageCookie(forced);
  setForcedLanguage(forced);
}
const language = initialLanguage();
// A signed-in page carries the boot's first answers: what it holds is not asked again below.
seedBootData(queryClient, language);
// the address's code (the layout's, the view's) is asked for now, beside the data; a page the
// server sent without a session cookie (`data-session="none"`) needs the login page's instead
preloadRouteCode(window.location.pathname, document.documentElement.dataset.session !== 'none');
// The configuration, the session, the texts and the stylesheets load side by side; the first
// render waits for the texts and the stylesheets. A user's permissions follow the session's answer.
prefetchConfig(language);
void prefetchUserInfo().then(() => prefetchPermissions(window.location.pathname));

void Promise.all([initI18n(language), import('./app/styles')]).then(() => {
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root');
  createRoot(container).render(<Root initialLanguage={language} queryClient={queryClient} />);
});
