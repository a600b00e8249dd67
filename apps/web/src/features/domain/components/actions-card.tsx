import { Button, Card, Group, Stack, Switch, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { isActionable, isVisible } from '@panel247/contract/constants';
import type { Domain } from '@panel247/contract/domain';
import type { PermissionMap } from '@panel247/contract/permissions';
import { IconCheck, IconKey, IconX } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { lazyDialog } from '../../../components/lazy-dialog';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useToggleBlock } from '../api/toggle-block';
import { useToggleTransferBlock } from '../api/toggle-transfer-block';
import { useToggleWhoisPrivacy } from '../api/toggle-whois-privacy';
import { useActionError } from '../lib/use-action-guard';

const SecretModal = lazyDialog(() => import('./secret-modal').then((m) => m.SecretModal), { opened: false });

type ToggleMutation = UseMutationResult<{ domain: Domain; info: string[] }, Error, void>;

/** A toggle while the user may act, disabled while its call runs; otherwise a read-only status icon. */
function ToggleRow({
  name,
  label,
  checked,
  canAct,
  mutation,
}: {
  name: string;
  label: string;
  checked: boolean;
  canAct: boolean;
  mutation: ToggleMutation;
}) {
  const { t } = useTranslation();
  const onError = useActionError();
  const state = checked ? t('domain.actions.on') : t('domain.actions.off');
  if (!canAct) {
    return (
      <Group justify="space-between" wrap="nowrap" data-testid={`status-${name}`} data-checked={String(checked)}>
        <Text size="sm">{label}</Text>
        <Tooltip label={state} withArrow>
          <ThemeIcon
            variant="light"
            color={checked ? 'teal' : 'gray'}
            size="md"
            radius="xl"
            role="img"
            aria-label={`${label}: ${state}`}
            tabIndex={0}
          >
            {checked ? <IconCheck size={16} aria-hidden /> : <IconX size={16} aria-hidden />}
          </ThemeIcon>
        </Tooltip>
      </Group>
    );
  }
  return (
    <Switch
      label={label}
      labelPosition="left"
      checked={checked}
      disabled={mutation.isPending}
      onChange={() =>
        mutation.mutate(undefined, {
          onSuccess: ({ info }) => notifySuccess(info),
          onError: (error) => onError(error, () => {}),
        })
      }
      data-testid={`toggle-${name}`}
      data-pending={mutation.isPending ? 'true' : 'false'}
      styles={{ body: { justifyContent: 'space-between' }, labelWrapper: { flex: 1 } }}
    />
  );
}

export function ActionsCard({ id, domain, permissions }: { id: number; domain: Domain; permissions: PermissionMap }) {
  const { t } = useTranslation();
  const block = useToggleBlock(id);
  const transfer = useToggleTransferBlock(id);
  const whois = useToggleWhoisPrivacy(id);
  const [secretOpen, setSecretOpen] = useState(false);
  const closeSecret = useCallback(() => setSecretOpen(false), []);
  const othersVisible = isVisible(permissions.domain_others);
  const transferVisible = isVisible(permissions.domain_transferblock);
  const authVisible = isVisible(permissions.domain_authcode);
  const secretLabel = domain.authType === 'authcode' ? t('domain.actions.auth_code') : t('domain.actions.transfer_key');

  return (
    <Card withBorder padding="lg" data-testid="actions-card">
      <Title order={2} size="h4" mb="xs">
        {t('domain.actions.title')}
      </Title>
      <Stack gap="sm">
        {othersVisible ? (
          <ToggleRow
            name="block"
            label={t('domain.actions.block')}
            checked={domain.blocked}
            canAct={isActionable(permissions.domain_others)}
            mutation={block}
          />
        ) : null}
        {transferVisible ? (
          <ToggleRow
            name="transferblock"
            label={t('domain.actions.transfer_block')}
            checked={domain.transferBlock}
            canAct={isActionable(permissions.domain_transferblock)}
            mutation={transfer}
          />
        ) : null}
        {othersVisible ? (
          <ToggleRow
            name="whoisprivacy"
            label={t('domain.actions.whois_privacy')}
            checked={domain.whoisPrivacy}
            canAct={isActionable(permissions.domain_others)}
            mutation={whois}
          />
        ) : null}
        {authVisible ? (
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{secretLabel}</Text>
            <Button
              variant="light"
              size="compact-sm"
              leftSection={<IconKey size={14} aria-hidden />}
              onClick={() => setSecretOpen(true)}
              data-testid="show-secret"
              aria-label={t('domain.actions.view_named', { name: secretLabel })}
            >
              {t('domain.actions.view')}
            </Button>
          </Group>
        ) : null}
        {!othersVisible && !transferVisible && !authVisible ? (
          <Text size="sm" c="dimmed">
            {t('domain.actions.none')}
          </Text>
        ) : null}
      </Stack>
      <SecretModal
        id={id}
        kind={domain.authType}
        title={secretLabel}
        opened={secretOpen}
        allowed={authVisible}
        onClose={closeSecret}
      />
    </Card>
  );
}
