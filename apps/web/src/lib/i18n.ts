import type { Language } from '@panel247/contract/constants';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

type Resource = Record<string, unknown>;

const loaders: Record<Language, () => Promise<{ default: Resource }>> = {
  es: () => import('../locales/es.json'),
  en: () => import('../locales/en.json'),
  ca: () => import('../locales/ca.json'),
};

/** Loads a language's texts on demand so every route only pays for the language it shows. */
async function ensureLoaded(language: Language): Promise<void> {
  const needed: Language[] = language === 'ca' ? ['ca', 'es'] : [language];
  await Promise.all(
    needed.map(async (lang) => {
      if (i18next.hasResourceBundle(lang, 'translation')) return;
      const module = await loaders[lang]();
      i18next.addResourceBundle(lang, 'translation', module.default, true, true);
    }),
  );
}

export async function initI18n(language: Language): Promise<typeof i18next> {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      lng: language,
      // Catalan may be partial: its missing texts come from Spanish. Spanish and English are complete.
      fallbackLng: { ca: ['es'], default: ['es'] },
      supportedLngs: ['es', 'en', 'ca'],
      resources: {},
      partialBundledLanguages: true,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await ensureLoaded(language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
  return i18next;
}

export async function switchI18nLanguage(language: Language): Promise<void> {
  await ensureLoaded(language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export { i18next };
