import { Badge, Button, Card, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { SessionItem } from '@panel247/contract/sessions';
import { IconDeviceDesktop, IconDeviceMobile, IconDevices, IconDeviceTablet, IconLogout } from '@tabler/icons-react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { formatEpoch } from '../../../lib/dates';
import { notifyCall, translateError } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useTranslation } from '../../../lib/use-translation';
import { useEndOtherSessions } from '../api/end-other-sessions';
import { useEndSession } from '../api/end-session';
import { useSessions } from '../api/list-sessions';

const DEVICE_ICONS = {
  desktop: IconDeviceDesktop,
  mobile: IconDeviceMobile,
  tablet: IconDeviceTablet,
  other: IconDevices,
} as const;

/** "Firefox 133 on Windows 10", with "unknown" for what the user agent did not say. */
function useDescribe() {
  const { t } = useTranslation();
  return (item: SessionItem) =>
    t('sessions.what', {
      browser: item.browser || t('sessions.unknown_browser'),
      os: item.os || t('sessions.unknown_os'),
    });
}

function SessionRow({ item, onEnd }: { item: SessionItem; onEnd: (item: SessionItem) => void }) {
  const { t, i18n } = useTranslation();
  const describe = useDescribe();
  const when = (seconds: number) => formatEpoch(seconds, i18n.language);
  const Icon = DEVICE_ICONS[item.device];
  const what = describe(item);
  return (
    <Group
      component="li"
      wrap="nowrap"
      align="flex-start"
      gap="sm"
      py="xs"
      data-testid="session-row"
      data-current={item.current ? 'true' : 'false'}
    >
      <ThemeIcon variant="light" size="lg" color={item.current ? undefined : 'gray'} aria-hidden>
        <Icon size={20} />
      </ThemeIcon>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs" wrap="wrap">
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {what}
          </Text>
          {item.current ? (
            <Badge variant="light" data-testid="session-current">
              {t('sessions.current')}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('sessions.ip', { ip: item.ip })}
          {' · '}
          {item.current ? t('sessions.active_now') : t('sessions.last_seen', { when: when(item.lastSeenAt) })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('sessions.started', { when: when(item.createdAt) })}
          {item.current ? ` · ${t('sessions.logout_to_end')}` : ''}
        </Text>
      </Stack>
      {item.current ? null : (
        <Button
          size="xs"
          variant="default"
          style={{ flexShrink: 0 }}
          aria-label={t('sessions.end_label', { what, ip: item.ip })}
          onClick={() => onEnd(item)}
          data-testid="session-end"
        >
          {t('sessions.end')}
        </Button>
      )}
    </Group>
  );
}

/** The preferences' sessions section: where the account is logged in, ending one or all others. */
export function SessionsCard() {
  const { t } = useTranslation();
  const describe = useDescribe();
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [endingId, setEndingId, closeEnd] = useDialog<string | null>(null);
  const [endingOthers, setEndingOthers, closeOthers] = useDialog(false);
  const items = sessions.data?.sessions ?? [];
  const others = items.filter((item) => !item.current).length;
  // The dialog follows its row: a session that ended meanwhile (elsewhere, or all others) closes it.
  const target = items.find((item) => item.id === endingId && !item.current);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="sessions-title" data-testid="sessions-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} size="h4" id="sessions-title">
            {t('sessions.title')}
          </Title>
          {others > 0 ? (
            <Button
              variant="default"
              leftSection={<IconLogout size={16} aria-hidden />}
              onClick={() => setEndingOthers(true)}
              data-testid="sessions-end-others"
            >
              {t('sessions.end_others')}
            </Button>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          {t('sessions.hint')}
        </Text>
        {sessions.isPending ? (
          <Loader size="sm" role="status" aria-label={t('main.loading')} />
        ) : sessions.isError ? (
          <Group gap="sm">
            <Text c="red" size="sm" role="alert">
              {translateError(sessions.error)}
            </Text>
            <Button variant="default" size="xs" onClick={() => sessions.refetch()}>
              {t('sessions.retry')}
            </Button>
          </Group>
        ) : items.length === 0 ? (
          <Text size="sm" data-testid="sessions-empty">
            {t('sessions.empty')}
          </Text>
        ) : (
          <>
            <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }} data-testid="sessions-list">
              {items.map((item) => (
                <SessionRow key={item.id} item={item} onEnd={(row) => setEndingId(row.id)} />
              ))}
            </Stack>
            {others === 0 ? (
              <Text size="sm" c="dimmed" data-testid="sessions-only-this">
                {t('sessions.only_this')}
              </Text>
            ) : null}
          </>
        )}
      </Stack>
      <ConfirmModal
        opened={Boolean(target)}
        title={t('sessions.end_title')}
        message={target ? t('sessions.end_confirm', { what: describe(target), ip: target.ip }) : ''}
        confirmLabel={t('sessions.end')}
        busy={endOne.isPending}
        onConfirm={() =>
          target && notifyCall(async () => (await endOne.mutateAsync({ id: target.id })).system.info, closeEnd)
        }
        onClose={closeEnd}
        testId="session-end-modal"
      />
      <ConfirmModal
        opened={endingOthers && others > 0}
        title={t('sessions.end_others_title')}
        message={t('sessions.end_others_confirm')}
        confirmLabel={t('sessions.end_others')}
        busy={endOthers.isPending}
        onConfirm={() => notifyCall(async () => (await endOthers.mutateAsync()).system.info, closeOthers)}
        onClose={closeOthers}
        testId="sessions-end-others-modal"
      />
    </Card>
  );
}
