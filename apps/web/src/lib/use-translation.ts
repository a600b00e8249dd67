import type { i18n as I18n, TFunction } from 'i18next';
import { useCallback, useContext, useSyncExternalStore } from 'react';
import { getI18n, I18nContext } from 'react-i18next';

/**
 * The app's `useTranslation`: react-i18next's, made cheap to mount. Theirs, at every mount of every
 * component that translates (about 300 of them), copies the i18next instance's properties into a
 * wrapper and builds a new fixed `t` (in a CPU profile of the server's worker, about 3 ms of a mail
 * page's 46 ms drawing; the browser pays it again when it takes the page over). This one shares one `t` per instance and
 * language, and renders again when the language changes, as theirs does (its default binding,
 * `languageChanged`; the app loads a screen's texts before the screen renders, so nothing waits on
 * a namespace, as their Suspense mode would). The instance is the provider's (the server's, one per
 * language) or the app's own.
 */

const fixedTexts = new WeakMap<I18n, { language: string; t: TFunction }>();

/** The instance's `t` in its current language, the same function until the language changes. */
function currentT(i18n: I18n): TFunction {
  const kept = fixedTexts.get(i18n);
  if (kept?.language === i18n.language) return kept.t;
  const t = i18n.getFixedT(i18n.language);
  fixedTexts.set(i18n, { language: i18n.language, t });
  return t;
}

export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext)?.i18n ?? getI18n();
  const subscribe = useCallback(
    (changed: () => void) => {
      i18n.on('languageChanged', changed);
      return () => i18n.off('languageChanged', changed);
    },
    [i18n],
  );
  const snapshot = () => currentT(i18n);
  const t = useSyncExternalStore(subscribe, snapshot, snapshot);
  return { t, i18n };
}
