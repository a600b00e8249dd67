import { Badge, Button, Card, Group, NativeSelect, Stack, Switch, Text, Title } from '@mantine/core';
import { isActionable, isVisible } from '@panel247/contract/constants';
import type { HostingService } from '@panel247/contract/hosting';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconFileAlert } from '@tabler/icons-react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { notifyCall, notifyError, notifySuccess } from '../../../lib/notify';
import { useDialog } from '../../../lib/use-dialog';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useSetParking } from '../api/set-parking';
import { useSetPhpVersion } from '../api/set-php-version';
import { phpChoices } from '../lib/hosting-format';
import { ErrorLogModal } from './error-log-modal';
import { SiteBuilderControl } from './site-builder-control';

/**
 * Information: parking toggle (service action: a switch that asks first; otherwise its state),
 * and outside parking the PHP version, the site builder and the error log.
 */
export function ServiceInfoCard({ set, service }: { set: PermissionSetData; service: HostingService }) {
  const { t } = useTranslation();
  const serviceId = set.id;
  const canService = isActionable(set.permissions.service);
  // The spec asks for the service action; the server guards parking with `service_parking`.
  const canPark = canService && isActionable(set.permissions.service_parking);
  const parking = service.parkingActive;

  const php = useSetPhpVersion(serviceId);
  const setParking = useSetParking(serviceId);
  const [asking, setAsking, closeAsk] = useDialog<boolean | null>(null);
  const askShown = useRightGuard(asking !== null, canPark, closeAsk);
  const [logOpen, setLogOpen, closeLog] = useDialog(false);

  const changePhp = (version: string) => {
    if (version === service.phpversion) return;
    php.mutate(version, { onSuccess: ({ info }) => notifySuccess(info), onError: notifyError });
  };
  const runParking = async () => {
    if (asking !== null) await notifyCall(async () => (await setParking.mutateAsync(asking)).info, closeAsk);
  };

  return (
    <Card withBorder padding="md" data-testid="hosting-info">
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('hosting.info_title')}
        </Title>
        <Group justify="space-between" wrap="wrap" gap="sm">
          {canPark ? (
            <Switch
              checked={parking}
              onChange={(event) => setAsking(event.currentTarget.checked)}
              label={t('hosting.parking')}
              description={t(parking ? 'hosting.parking_on_hint' : 'hosting.parking_off_hint')}
              data-testid="hosting-parking-switch"
            />
          ) : (
            <Group gap="xs" data-testid="hosting-parking-status">
              <Text size="sm" fw={500}>
                {t('hosting.parking')}
              </Text>
              <Badge color={parking ? 'orange' : 'gray'} variant="light">
                {t(parking ? 'hosting.parking_active' : 'hosting.parking_inactive')}
              </Badge>
            </Group>
          )}
        </Group>
        {parking ? null : (
          <>
            <NativeSelect
              label={t('hosting.php_version')}
              description={canService ? undefined : t('hosting.php_readonly')}
              // the chosen version shows while it is saved; a refusal puts the stored one back
              value={php.isPending ? (php.variables ?? service.phpversion) : service.phpversion}
              data={phpChoices(service, t('hosting.php_default', { version: service.defaultPHPVersion }))}
              disabled={!canService || php.isPending}
              onChange={(event) => changePhp(event.currentTarget.value)}
              w={{ base: '100%', xs: 320 }}
              data-testid="hosting-php-select"
            />
            {isVisible(set.permissions.service) ? <SiteBuilderControl set={set} allowed={canService} /> : null}
            <Group>
              <Button
                variant="default"
                leftSection={<IconFileAlert size={16} aria-hidden />}
                onClick={() => setLogOpen(true)}
                data-testid="hosting-error-log"
              >
                {t('hosting.error_log')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
      <ConfirmModal
        opened={asking !== null && askShown}
        title={t('hosting.parking_title')}
        message={t(asking ? 'hosting.parking_enable_confirm' : 'hosting.parking_disable_confirm', {
          name: set.reference,
        })}
        confirmLabel={t(asking ? 'hosting.parking_enable' : 'hosting.parking_disable')}
        color={asking ? 'red.8' : null}
        busy={setParking.isPending}
        onConfirm={runParking}
        onClose={closeAsk}
        testId="hosting-parking-modal"
      />
      <ErrorLogModal opened={logOpen} onClose={closeLog} serviceId={serviceId} reference={set.reference} />
    </Card>
  );
}
