import {
  Button,
  Card,
  CheckIcon,
  ColorSwatch,
  Group,
  Input,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { THEME_COLORS, THEME_MODES, type ThemeMode } from '@panel247/contract/constants';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { LanguageSelect } from '../../../components/language-select';
import { useApp } from '../../../lib/app-context';
import { useThemeMode } from '../../../lib/theme-actions';
import { PALETTE } from '../../../lib/theme-colors';
import { usePageTitle } from '../../../lib/use-page-title';
import { useTranslation } from '../../../lib/use-translation';
import { ApiTokensCard } from '../components/api-tokens-card';
import { ChangePasswordModal } from '../components/change-password-modal';
import { PasskeysCard } from '../components/passkeys-card';
import { SessionsCard } from '../components/sessions-card';
import { TwoFactorCard } from '../components/two-factor-card';

function ColorPicker() {
  const { t } = useTranslation();
  const { color, setColor } = useApp();
  return (
    <Input.Wrapper label={t('preferences.color')} id="color-picker-label" component="div">
      <Group gap={8} mt={6} role="radiogroup" aria-labelledby="color-picker-label" data-testid="color-picker">
        {THEME_COLORS.map((name) => (
          <ColorSwatch
            key={name}
            component="button"
            type="button"
            color={PALETTE[name][6]}
            role="radio"
            aria-checked={color === name}
            aria-label={t(`colors.${name}`)}
            title={t(`colors.${name}`)}
            data-color={name}
            onClick={() => setColor(name)}
            style={{ color: '#fff', cursor: 'pointer' }}
            size={28}
          >
            {color === name ? <CheckIcon size={12} /> : null}
          </ColorSwatch>
        ))}
      </Group>
    </Input.Wrapper>
  );
}

export default function PreferencesRoute() {
  const { t } = useTranslation();
  usePageTitle(t('preferences.title'));
  const { config } = useApp();
  const [mode, setMode] = useThemeMode();
  const [passwordOpen, setPasswordOpen] = useState(false);

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('preferences.title')}
      </Title>
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('preferences.appearance')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('preferences.theme')}
              data-testid="theme-select"
              allowDeselect={false}
              value={mode}
              data={THEME_MODES.map((value) => ({ value, label: t(`theme.${value}`) }))}
              onChange={(value) => {
                if (value) setMode(value as ThemeMode);
              }}
            />
            <LanguageSelect />
          </SimpleGrid>
          {config.themeConfig.allowColorChange ? <ColorPicker /> : null}
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={2} size="h4">
              {t('preferences.security')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('preferences.change_password_hint')}
            </Text>
          </div>
          <Button
            leftSection={<IconKey size={16} aria-hidden />}
            variant="light"
            onClick={() => setPasswordOpen(true)}
            data-testid="change-password-open"
          >
            {t('preferences.change_password')}
          </Button>
        </Group>
      </Card>
      <TwoFactorCard />
      <PasskeysCard />
      <SessionsCard />
      <ApiTokensCard />
      <ChangePasswordModal opened={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Stack>
  );
}
