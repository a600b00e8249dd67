import type { Language } from '@panel247/contract/constants';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LocalePart } from './locale-parts';

export type Texts = { default: Record<string, unknown> };
export type TextLoaders = Record<Language, () => Promise<Texts>>;

// Literal specifiers, one chunk each: see locale-plugin.ts and locale-parts.ts. A lazy chunk adds
// the loaders of its own part (the console's), so the login route's code does not carry them.
const loaders: Partial<Record<LocalePart, TextLoaders>> = {
  start: {
    es: () => import('virtual:locale/es-start'),
    en: () => import('virtual:locale/en-start'),
    ca: () => import('virtual:locale/ca-start'),
  },
  areas: {
    es: () => import('virtual:locale/es-areas'),
    en: () => import('virtual:locale/en-areas'),
    ca: () => import('virtual:locale/ca-areas'),
  },
};

const loaded = new Map<string, Promise<void>>();
/** The parts asked for so far: a language switch loads each of them (the start part always). */
const wanted = new Set<LocalePart>(['start']);
let current: Language = 'es';

function ensureLoaded(language: Language, parts: Iterable<LocalePart>): Promise<unknown> {
  return Promise.all(
    [...parts].map((part) => {
      const key = `${language}-${part}`;
      let pending = loaded.get(key);
      if (!pending) {
        pending = (loaders[part] as TextLoaders)[language]().then((module) => {
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

export async function initI18n(language: Language): Promise<typeof i18next> {
  // set first: a part asked for while the app starts (the layout's texts, with its code) comes in this language
  current = language;
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
  await ensureLoaded(language, wanted);
  await i18next.changeLanguage(language);
  // a server drawing a page has no document: its page says the language itself
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  return i18next;
}

/** The texts of the screens behind a session (the layout waits for them with its own code). */
export function loadAreaTexts(): Promise<unknown> {
  return loadTexts('areas');
}

/** A part's texts, now and after every language switch; `own` are the loaders a lazy chunk brings. */
export function loadTexts(part: LocalePart, own?: TextLoaders): Promise<unknown> {
  if (own) loaders[part] = own;
  wanted.add(part);
  return ensureLoaded(current, [part]);
}

export async function switchI18nLanguage(language: Language): Promise<void> {
  await ensureLoaded(language, wanted);
  await i18next.changeLanguage(language);
  current = language;
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

export { i18next };
