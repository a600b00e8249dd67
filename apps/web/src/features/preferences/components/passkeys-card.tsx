import { Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { Passkey } from '@panel247/contract/passkey';
import { IconFingerprint, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { formatEpoch } from '../../../lib/dates';
import { translateError } from '../../../lib/notify';
import { passkeysAvailable } from '../../../lib/passkey-browser';
import { useBrowserValue } from '../../../lib/use-browser-value';
import { useTranslation } from '../../../lib/use-translation';
import { usePasskeys } from '../api/passkey-list';
import { useTwoFactorStatus } from '../api/two-factor-status';
import { PasskeyAddModal } from './passkey-add-modal';
import { PasskeyRemoveModal } from './passkey-remove-modal';
import { PasskeyRenameModal } from './passkey-rename-modal';

/** The preferences' passkeys: each named, when it was added and last used; add, rename and remove. */
export function PasskeysCard() {
  const { t, i18n } = useTranslation();
  const list = usePasskeys();
  const twoFactor = useTwoFactorStatus();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const date = (seconds: number) => formatEpoch(seconds, i18n.language);
  const available = useBrowserValue(passkeysAvailable, false);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="passkeys-title" data-testid="passkeys-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="passkeys-title">
            {t('passkeys.title')}
          </Title>
          <Button
            leftSection={<IconFingerprint size={16} aria-hidden />}
            variant="light"
            onClick={() => setAdding(true)}
            // The dialog asks for the factors the user has: wait until both are known.
            disabled={!available || twoFactor.isPending || list.isPending}
            data-testid="passkey-add"
          >
            {t('passkeys.add')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t(available ? 'passkeys.hint' : 'passkeys.unavailable')}
        </Text>
        {list.isPending ? (
          <Loader size="sm" role="status" aria-label={t('main.loading')} />
        ) : list.isError ? (
          <Group gap="sm">
            <Text c="red" size="sm" role="alert">
              {translateError(list.error)}
            </Text>
            <Button variant="default" size="xs" onClick={() => list.refetch()}>
              {t('two_factor.retry')}
            </Button>
          </Group>
        ) : list.data.passkeys.length === 0 ? (
          <Text size="sm" data-testid="passkeys-empty">
            {t('passkeys.empty')}
          </Text>
        ) : (
          <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} data-testid="passkeys-list">
            {list.data.passkeys.map((passkey) => (
              <Group
                component="li"
                key={passkey.id}
                justify="space-between"
                wrap="nowrap"
                gap="sm"
                data-testid="passkey-row"
              >
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Group gap="xs" wrap="wrap">
                    <Text fw={500} truncate="end">
                      {passkey.name}
                    </Text>
                    {passkey.backedUp ? (
                      <Badge variant="light" color="gray" size="sm">
                        {t('passkeys.synced')}
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {t('passkeys.added_on', { date: date(passkey.createdAt) })}
                    {' · '}
                    {passkey.lastUsedAt
                      ? t('passkeys.last_used', { date: date(passkey.lastUsedAt) })
                      : t('passkeys.never_used')}
                  </Text>
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <Button
                    variant="subtle"
                    size="xs"
                    leftSection={<IconPencil size={14} aria-hidden />}
                    onClick={() => setRenaming(passkey)}
                    aria-label={t('passkeys.rename_title', { name: passkey.name })}
                    data-testid="passkey-rename"
                  >
                    {t('passkeys.rename')}
                  </Button>
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    onClick={() => setRemoving(passkey)}
                    aria-label={t('passkeys.remove_title', { name: passkey.name })}
                    data-testid="passkey-remove"
                  >
                    {t('passkeys.remove')}
                  </Button>
                </Group>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      <PasskeyAddModal
        opened={adding}
        onClose={() => setAdding(false)}
        needsCode={twoFactor.data?.enabled === true}
        hasPasskeys={(list.data?.passkeys.length ?? 0) > 0}
      />
      <PasskeyRenameModal passkey={renaming} onClose={() => setRenaming(null)} />
      <PasskeyRemoveModal
        passkey={removing}
        hasCodes={twoFactor.data?.enabled === true}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}
