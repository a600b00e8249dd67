import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { prefetchConfig, prefetchPermissions, prefetchUserInfo, queryClient } from './app/query-client';
import { Root } from './app/root';
import { preloadRoute } from './app/router';
import { setForcedLanguage } from './lib/api-client';
import { seedBootData } from './lib/boot-data';
import { initI18n } from './lib/i18n';
import { forcedLanguageFromUrl, initialLanguage, isLanguage, writeLanguageCookie } from './lib/language';
import { nextTask } from './lib/next-task';
import { drawnByServer, takeOver } from './lib/server-drawn';
import { writeViewCookie } from './lib/view-cookie';

const container = document.getElementById('root');
if (!container) throw new Error('no #root');
const drawn = drawnByServer(container);
const forced = forcedLanguageFromUrl();
if (forced) {
  writeLanguageCookie(forced);
  setForcedLanguage(forced);
}
// A page the server drew is in its language: the app's first render must be the same.
const pageLanguage = document.documentElement.lang;
const language = drawn && isLanguage(pageLanguage) ? pageLanguage : initialLanguage();
writeViewCookie();
// A signed-in page carries the boot's first answers: what it holds is not asked again below.
const boot = seedBootData(queryClient, language);
// The calls first, then, each in a task of its own, the texts and the address's code (the layout's
// and the view's), all side by side with the data and the stylesheets; the first render waits for
// all of them, so no page of the address suspends (and waits for React's reveal throttle) on its way
// to the screen. Separate tasks: evaluating the modules and all of the boot in one was the login
// page's longest task on a slow phone (Lighthouse's TBT, apps/server/bench/README.md).
prefetchConfig(language);
void prefetchUserInfo().then(() => prefetchPermissions(window.location.pathname));
const styles = import('./app/styles');
const texts = nextTask().then(() => initI18n(language));
const signedIn = boot ? boot.signedIn : document.documentElement.dataset.session !== 'none';
// the second message is posted once the first has run: the code's task comes after the texts'
const code = nextTask()
  .then(nextTask)
  .then(() => preloadRoute(window.location, { signedIn, queryClient, language }));

void Promise.all([texts, styles, code]).then(() => {
  const root = <Root initialLanguage={language} queryClient={queryClient} />;
  if (drawn) {
    takeOver(container);
    // The rows are on screen already (the page runs this script only then): hydrating them as a
    // transition yields to the browser every few milliseconds instead of one long task, which
    // would block a press for its whole length (Lighthouse's TBT counts it once the rows are
    // painted). The page stays inert until its view has hydrated.
    startTransition(() => {
      hydrateRoot(container, root);
    });
  } else {
    // As a transition, the first render yields to the browser every few milliseconds instead of
    // holding the main thread for the whole tree: on a slow phone that one task was most of the
    // login page's blocking time (Lighthouse's TBT, apps/server/bench/README.md).
    const appRoot = createRoot(container);
    startTransition(() => appRoot.render(root));
  }
});
