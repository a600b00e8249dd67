import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { translateError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useTwoFactorStatus } from '../api/two-factor-status';
import { type ReauthAction, TwoFactorReauthModal } from './two-factor-reauth-modal';
import { TwoFactorSetupModal } from './two-factor-setup-modal';

/** The preferences' two-factor section: its state, set-up, new recovery codes, turning it off. */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const [setupOpen, setSetupOpen] = useState(false);
  const [reauth, setReauth] = useState<ReauthAction | null>(null);
  const data = status.data;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="two-factor-title" data-testid="two-factor-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Title order={2} size="h4" id="two-factor-title">
              {t('two_factor.title')}
            </Title>
            {data ? (
              <Badge color={data.enabled ? 'teal' : 'gray'} variant="light" data-testid="two-factor-state">
                {t(data.enabled ? 'two_factor.on' : 'two_factor.off')}
              </Badge>
            ) : null}
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('two_factor.hint')}
        </Text>
        {status.isPending ? (
          <Loader size="sm" role="status" aria-label={t('main.loading')} />
        ) : status.isError ? (
          <Group gap="sm">
            <Text c="red" size="sm" role="alert">
              {translateError(status.error)}
            </Text>
            <Button variant="default" size="xs" onClick={() => status.refetch()}>
              {t('two_factor.retry')}
            </Button>
          </Group>
        ) : data?.enabled ? (
          <>
            <Text size="sm" data-testid="two-factor-codes-left">
              {t('two_factor.codes_left', { count: data.recoveryCodesLeft })}
            </Text>
            <Group gap="sm" wrap="wrap">
              <Button variant="light" onClick={() => setReauth('recovery')} data-testid="two-factor-new-codes">
                {t('two_factor.new_codes')}
              </Button>
              <Button variant="light" color="red" onClick={() => setReauth('disable')} data-testid="two-factor-off">
                {t('two_factor.turn_off')}
              </Button>
            </Group>
          </>
        ) : (
          <>
            {data?.required ? (
              <Alert color="orange" variant="light" role="alert" data-testid="two-factor-required">
                {t('two_factor.required')}
              </Alert>
            ) : null}
            <Group>
              <Button
                leftSection={<IconShieldLock size={16} aria-hidden />}
                onClick={() => setSetupOpen(true)}
                data-testid="two-factor-setup"
              >
                {t('two_factor.set_up')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
      <TwoFactorSetupModal opened={setupOpen} onClose={() => setSetupOpen(false)} />
      <TwoFactorReauthModal action={reauth} onClose={() => setReauth(null)} />
    </Card>
  );
}
