import { ActionIcon } from '@mantine/core';
import { THEME_MODES } from '@panel247/contract/constants';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useThemeMode } from '../lib/theme-actions';
import { useTranslation } from '../lib/use-translation';

const ICONS = { system: IconDeviceDesktop, light: IconSun, dark: IconMoon } as const;

/** System / light / dark as a group of toggle buttons (the login page's theme switcher). */
export function ThemeModeControl() {
  const { t } = useTranslation();
  const [mode, setMode] = useThemeMode();
  return (
    <ActionIcon.Group role="group" aria-label={t('preferences.theme')} data-testid="theme-mode">
      {THEME_MODES.map((value) => {
        const Icon = ICONS[value];
        return (
          <ActionIcon
            key={value}
            variant={mode === value ? 'filled' : 'default'}
            size="lg"
            aria-label={t(`theme.${value}`)}
            aria-pressed={mode === value}
            title={t(`theme.${value}`)}
            data-mode={value}
            onClick={() => setMode(value)}
          >
            <Icon size={18} aria-hidden />
          </ActionIcon>
        );
      })}
    </ActionIcon.Group>
  );
}
