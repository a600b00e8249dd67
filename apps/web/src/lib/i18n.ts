import type { Language } from '@panel247/contract/constants';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LocalePart } from './locale-parts';

type Texts = { default: Record<string, unknown> };

// Literal specifiers, one chunk each: see locale-plugin.ts and locale-parts.ts.
const loaders: Record<Language, Record<LocalePart, () => Promise<Texts>>> = {
  es: { start: () => import('virtual:locale/es-start'), areas: () => import('virtual:locale/es-areas') },
  en: { start: () => import('virtual:locale/en-start'), areas: () => import('virtual:locale/en-areas') },
  ca: { start: () => import('virtual:locale/ca-start'), areas: () => import('virtual:locale/ca-areas') },
};

const loaded = new Map<string, Promise<void>>();
/** Once a screen behind the session has asked for the areas' texts, a language switch loads them too. */
let areasWanted = false;
let current: Language = 'es';

function ensureLoaded(language: Language, parts: LocalePart[]): Promise<unknown> {
  return Promise.all(
    parts.map((part) => {
      const key = `${language}-${part}`;
      let pending = loaded.get(key);
      if (!pending) {
        pending = loaders[language][part]().then((module) => {
          i18next.addResourceBundle(language, 'translation', module.default, true, true);
        });
        // A failed load (network) may be tried again by the next caller.
        pending.catch(() => loaded.delete(key));
        loaded.set(key, pending);
      }
      return pending;
    }),
  );
}

const partsWanted = (): LocalePart[] => (areasWanted ? ['start', 'areas'] : ['start']);

export async function initI18n(language: Language): Promise<typeof i18next> {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      lng: language,
      // Catalan's missing texts are filled in from Spanish when its bundles are built
      // (locale-parts.ts); Spanish and English are complete. Nothing is left to fall back on.
      fallbackLng: false,
      supportedLngs: ['es', 'en', 'ca'],
      resources: {},
      partialBundledLanguages: true,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await ensureLoaded(language, partsWanted());
  await i18next.changeLanguage(language);
  current = language;
  document.documentElement.lang = language;
  return i18next;
}

/** The texts of the screens behind a session (the layout waits for them with its own code). */
export async function loadAreaTexts(): Promise<void> {
  areasWanted = true;
  await ensureLoaded(current, ['areas']);
}

export async function switchI18nLanguage(language: Language): Promise<void> {
  await ensureLoaded(language, partsWanted());
  await i18next.changeLanguage(language);
  current = language;
  document.documentElement.lang = language;
}

export { i18next };
