import { NativeSelect } from '@mantine/core';
import { LANGUAGES, type Language } from '@panel247/contract/constants';
import { useApp } from '../lib/app-context';
import { useTranslation } from '../lib/use-translation';

/** Language names are shown in their own language, so they are not translated. */
export const LANGUAGE_NAMES: Record<Language, string> = { es: 'Español', en: 'English', ca: 'Català' };

/**
 * es / en / ca, never empty. A native select: light for the login route's budget and fully
 * keyboard- and screen-reader-friendly. Changing it sets the cookie, reloads the configuration
 * and tells the other tabs.
 */
export function LanguageSelect({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { language, setLanguage } = useApp();
  return (
    <NativeSelect
      size={compact ? 'xs' : 'sm'}
      w={compact ? 120 : undefined}
      label={compact ? undefined : t('preferences.language')}
      aria-label={t('preferences.language')}
      data-testid="language-select"
      value={language}
      data={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
      onChange={(event) => {
        const value = event.currentTarget.value as Language;
        if (value !== language) void setLanguage(value);
      }}
    />
  );
}
