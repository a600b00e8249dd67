import { Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ApiTokenItem } from '@panel247/contract/api-tokens';
import { IconPlus } from '@tabler/icons-react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { formatEpoch } from '../../../lib/dates';
import { notifyCall, translateError } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useTranslation } from '../../../lib/use-translation';
import { useApiTokens } from '../api/list-api-tokens';
import { usePasskeys } from '../api/passkey-list';
import { useRevokeApiToken } from '../api/revoke-api-token';
import { useTwoFactorStatus } from '../api/two-factor-status';
import { ApiTokenCreateModal } from './api-token-create-modal';
import { ApiTokensRevokeAllModal } from './api-tokens-revoke-all-modal';

function TokenRow({ item, onRevoke }: { item: ApiTokenItem; onRevoke: (item: ApiTokenItem) => void }) {
  const { t, i18n } = useTranslation();
  const when = (seconds: number) => formatEpoch(seconds, i18n.language);
  const expired = item.expiresAt * 1000 <= Date.now();
  return (
    <Group component="li" wrap="nowrap" align="flex-start" gap="sm" py="xs" data-testid="api-token-row">
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs" wrap="wrap">
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {item.name}
          </Text>
          {expired ? (
            <Badge color="gray" variant="light" data-testid="api-token-expired">
              {t('api_tokens.expired')}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="api-token-scope">
          {item.scope.length === 0
            ? t('api_tokens.scope_none')
            : item.scope.map((entry) => `${entry.reference} (${t(`api_tokens.level_${entry.level}`)})`).join(', ')}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {item.lastUsedAt === null
            ? t('api_tokens.never_used')
            : t('api_tokens.last_used', { when: when(item.lastUsedAt), ip: item.lastUsedIp })}
        </Text>
        <Text size="xs" c="dimmed">
          {t(expired ? 'api_tokens.expired_on' : 'api_tokens.expires', { when: when(item.expiresAt) })}
          {' · '}
          {t('api_tokens.created_on', { when: when(item.createdAt) })}
        </Text>
      </Stack>
      <Button
        size="xs"
        variant="default"
        style={{ flexShrink: 0 }}
        aria-label={t('api_tokens.revoke_label', { name: item.name })}
        onClick={() => onRevoke(item)}
        data-testid="api-token-revoke"
      >
        {t('api_tokens.revoke')}
      </Button>
    </Group>
  );
}

/**
 * The preferences' API tokens: the user's tokens for scripts, a new one, revoking one or all of
 * them (a password change revokes them all too).
 */
export function ApiTokensCard() {
  const { t } = useTranslation();
  const tokens = useApiTokens();
  const twoFactor = useTwoFactorStatus();
  const passkeys = usePasskeys();
  const revoke = useRevokeApiToken();
  const [creating, setCreating, closeCreate] = useDialog(false);
  const [revokingId, setRevokingId, closeRevoke] = useDialog<number | null>(null);
  const [revokingAll, setRevokingAll, closeRevokeAll] = useDialog(false);
  const needsCode = twoFactor.data?.enabled ?? false;
  const hasPasskeys = (passkeys.data?.passkeys.length ?? 0) > 0;
  const items = tokens.data?.tokens ?? [];
  const target = items.find((item) => item.id === revokingId);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="api-tokens-title" data-testid="api-tokens-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} size="h4" id="api-tokens-title">
            {t('api_tokens.title')}
          </Title>
          <Group gap="xs" wrap="wrap">
            {items.length > 0 ? (
              <Button
                variant="default"
                color="red"
                onClick={() => setRevokingAll(true)}
                disabled={twoFactor.isPending || passkeys.isPending}
                data-testid="api-tokens-revoke-all"
              >
                {t('api_tokens.revoke_all')}
              </Button>
            ) : null}
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setCreating(true)}
              disabled={twoFactor.isPending}
              data-testid="api-token-new"
            >
              {t('api_tokens.new')}
            </Button>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('api_tokens.hint')}
        </Text>
        {tokens.isPending ? (
          <Loader size="sm" role="status" aria-label={t('main.loading')} />
        ) : tokens.isError ? (
          <Group gap="sm">
            <Text c="red" size="sm" role="alert">
              {translateError(tokens.error)}
            </Text>
            <Button variant="default" size="xs" onClick={() => tokens.refetch()}>
              {t('sessions.retry')}
            </Button>
          </Group>
        ) : items.length === 0 ? (
          <Text size="sm" data-testid="api-tokens-empty">
            {t('api_tokens.empty')}
          </Text>
        ) : (
          <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }} data-testid="api-tokens-list">
            {items.map((item) => (
              <TokenRow key={item.id} item={item} onRevoke={(row) => setRevokingId(row.id)} />
            ))}
          </Stack>
        )}
      </Stack>
      <ApiTokenCreateModal opened={creating} onClose={closeCreate} needsCode={needsCode} hasPasskeys={hasPasskeys} />
      <ApiTokensRevokeAllModal
        opened={revokingAll}
        onClose={closeRevokeAll}
        needsCode={needsCode}
        hasPasskeys={hasPasskeys}
      />
      <ConfirmModal
        opened={Boolean(target)}
        title={t('api_tokens.revoke_title')}
        message={target ? t('api_tokens.revoke_confirm', { name: target.name }) : ''}
        confirmLabel={t('api_tokens.revoke')}
        busy={revoke.isPending}
        onConfirm={() =>
          target && notifyCall(async () => (await revoke.mutateAsync({ id: target.id })).system.info, closeRevoke)
        }
        onClose={closeRevoke}
        testId="api-token-revoke-modal"
      />
    </Card>
  );
}
