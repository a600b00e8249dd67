import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createRoot } from 'react-dom/client';
import { prefetchConfig, queryClient } from './app/query-client';
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
// The configuration and the texts load side by side; the first paint waits only for the texts.
prefetchConfig(language);

void initI18n(language).then(() => {
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root');
  createRoot(container).render(<Root initialLanguage={language} queryClient={queryClient} />);
});
