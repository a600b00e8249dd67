import { ActionIcon, Alert, Button, Checkbox, Group, List, Loader, Radio, Stack, Text, TextInput } from '@mantine/core';
import type { DnsInitData, Domain } from '@panel247/contract/domain';
import { NAMESERVERS_MAX, NAMESERVERS_MIN, PROPAGATION_HOURS } from '@panel247/contract/domain-rules';
import { IconAlertTriangle, IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useReducer, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { fieldErrorRecord } from '../../../lib/form-errors';
import { notifyErrorMessage, notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useEditDns } from '../api/edit-dns';
import { useDnsInit } from '../api/get-dns-init';
import {
  canAddRow,
  canRemoveRow,
  type DnsChoice,
  dnsRowsReducer,
  initialDnsState,
  rowOfField,
  validateDnsRows,
} from '../lib/dns-rows';
import { useActionError, useActionGuard } from '../lib/use-action-guard';

/** Moving away from the provider's name servers with DS records: remove them too, or keep them. */
type DsChoice = 'remove' | 'keep';

/** The rows of the DNS edit form: 2 to 7 custom servers, the first 2 fixed; the provider's servers when offered. */
export function NameserversEditForm({
  init,
  mode,
  busy,
  onSubmit,
  onCancel,
}: {
  init: Pick<DnsInitData, 'domainDNSs' | 'hasService' | 'defaultDNSs'> &
    Partial<Pick<DnsInitData, 'dsRecords' | 'canRemoveDs' | 'zoneDsRecords'>>;
  mode: Domain['dns']['mode'];
  busy: boolean;
  /** Resolves with the server's field errors by row (empty on success). */
  onSubmit: (
    useDefault: boolean,
    servers: string[],
    ds?: DsChoice,
    publishDs?: boolean,
  ) => Promise<Record<number, string>>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(dnsRowsReducer, undefined, () => initialDnsState(init, mode));
  const [errors, setErrors] = useState<Record<number, string>>({});
  const dsRecords = init.dsRecords ?? 0;
  // Removing is the default; keeping must be chosen, and is the only choice without the DNSSEC right.
  const [ds, setDs] = useState<DsChoice | null>(init.canRemoveDs === false ? null : 'remove');
  const [dsError, setDsError] = useState<string | undefined>();
  const leavingSigned = state.choice === 'custom' && dsRecords > 0;
  // Back to the provider's servers with the hosted zone signed here: publish its DS too (default on).
  const zoneDsRecords = init.canRemoveDs === false ? 0 : (init.zoneDsRecords ?? 0);
  const offerPublish = state.choice === 'default' && zoneDsRecords > 0;
  const [publish, setPublish] = useState(true);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.choice === 'custom') {
      const local = validateDnsRows(state.rows);
      if (Object.keys(local).length > 0) {
        setErrors(Object.fromEntries(Object.entries(local).map(([index, key]) => [index, t(key)])));
        return;
      }
    }
    if (leavingSigned && !ds) {
      setDsError(t('domain.dns.ds_choose'));
      return;
    }
    const useDefault = state.choice === 'default';
    const servers = state.rows.map((row) => row.trim());
    setErrors(
      await (leavingSigned && ds
        ? onSubmit(useDefault, servers, ds)
        : offerPublish
          ? onSubmit(useDefault, servers, undefined, publish)
          : onSubmit(useDefault, servers)),
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="dns-edit-form">
      <Stack gap="sm">
        {init.hasService ? (
          <Radio.Group
            label={t('domain.dns.choice')}
            value={state.choice}
            onChange={(value) => {
              setErrors({});
              dispatch({ type: 'choose', choice: value as DnsChoice });
            }}
          >
            <Stack gap={6} mt={6}>
              <Radio value="default" label={t('domain.dns.choice_default')} data-testid="dns-choice-default" />
              <Radio value="custom" label={t('domain.dns.choice_custom')} data-testid="dns-choice-custom" />
            </Stack>
          </Radio.Group>
        ) : null}
        {state.choice === 'default' ? (
          <div>
            <Text size="sm" fw={500} id="dns-default-label">
              {t('domain.dns.default_servers')}
            </Text>
            <List size="sm" aria-labelledby="dns-default-label" data-testid="dns-default-servers">
              {init.defaultDNSs.map((server) => (
                <List.Item key={server}>{server}</List.Item>
              ))}
            </List>
          </div>
        ) : (
          <Stack gap={6} data-testid="dns-rows">
            <Text size="sm" c="dimmed">
              {t('domain.dns.rows_hint', { min: NAMESERVERS_MIN, max: NAMESERVERS_MAX })}
            </Text>
            {state.rows.map((row, index) => (
              <Group
                // rows are positional: the server names a row's error by its index
                // biome-ignore lint/suspicious/noArrayIndexKey: the position is the identity of a row
                key={index}
                gap="xs"
                align="flex-start"
                wrap="nowrap"
              >
                <TextInput
                  style={{ flex: 1 }}
                  label={t('domain.dns.server_n', { n: index + 1 })}
                  required={index < NAMESERVERS_MIN}
                  value={row}
                  error={errors[index]}
                  autoComplete="off"
                  spellCheck={false}
                  data-testid={`dns-row-${index}`}
                  data-autofocus={index === 0 ? true : undefined}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setErrors((current) => {
                      if (!current[index]) return current;
                      const { [index]: _, ...rest } = current;
                      return rest;
                    });
                    dispatch({ type: 'set', index, value });
                  }}
                />
                {canRemoveRow(state.rows, index) ? (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={28}
                    aria-label={t('domain.dns.remove_server', { n: index + 1 })}
                    data-testid={`dns-row-remove-${index}`}
                    onClick={() => {
                      setErrors({});
                      dispatch({ type: 'remove', index });
                    }}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                ) : null}
              </Group>
            ))}
            {canAddRow(state.rows) ? (
              <Button
                variant="light"
                size="compact-sm"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => {
                  setErrors({});
                  dispatch({ type: 'add' });
                }}
                data-testid="dns-add-row"
                style={{ alignSelf: 'flex-start' }}
              >
                {t('domain.dns.add_server')}
              </Button>
            ) : null}
          </Stack>
        )}
        {offerPublish ? (
          <Checkbox
            checked={publish}
            onChange={(event) => setPublish(event.currentTarget.checked)}
            label={t('domain.dns.publish_ds', { count: zoneDsRecords })}
            description={t('domain.dns.publish_ds_hint')}
            data-testid="dns-publish-ds"
          />
        ) : null}
        {leavingSigned ? (
          <Alert
            variant="light"
            color="orange"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title={t('domain.dns.ds_warning_title')}
            data-testid="dns-ds-warning"
          >
            <Stack gap="xs">
              <Text size="sm">{t('domain.dns.ds_warning', { count: dsRecords })}</Text>
              <Radio.Group
                label={t('domain.dns.ds_choice')}
                value={ds}
                error={dsError}
                onChange={(value) => {
                  setDsError(undefined);
                  setDs(value as DsChoice);
                }}
              >
                <Stack gap={6} mt={6}>
                  <Radio
                    value="remove"
                    label={t('domain.dns.ds_remove')}
                    description={init.canRemoveDs === false ? t('domain.dns.ds_remove_forbidden') : undefined}
                    disabled={init.canRemoveDs === false}
                    data-testid="dns-ds-remove"
                  />
                  <Radio value="keep" label={t('domain.dns.ds_keep')} data-testid="dns-ds-keep" />
                </Stack>
              </Radio.Group>
            </Stack>
          </Alert>
        ) : null}
        <Alert
          variant="light"
          color="blue"
          icon={<IconInfoCircle size={18} aria-hidden />}
          data-testid="dns-propagation"
        >
          {t('domain.dns.propagation', { hours: PROPAGATION_HOURS })}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('main.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="dns-edit-submit">
            {t('main.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function NameserversEditModal({
  id,
  domain,
  opened,
  allowed,
  onClose,
}: {
  id: number;
  domain: Domain;
  opened: boolean;
  allowed: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ok = useActionGuard(opened, allowed, onClose);
  const init = useDnsInit(id, opened && ok);
  const edit = useEditDns(id);
  const onError = useActionError();

  const submit = async (
    useDefault: boolean,
    servers: string[],
    ds?: DsChoice,
    publishDs?: boolean,
  ): Promise<Record<number, string>> => {
    try {
      const result = await edit.mutateAsync({
        'default-ns': useDefault ? '1' : '0',
        dns: servers,
        ds,
        publishDs: publishDs === undefined ? undefined : publishDs ? '1' : '0',
      });
      notifySuccess(result.info);
      onClose();
      return {};
    } catch (error) {
      onError(error, onClose);
      const rows: Record<number, string> = {};
      for (const [field, message] of Object.entries(fieldErrorRecord(error))) {
        const row = rowOfField(field);
        if (row !== null) rows[row] = t(message, { defaultValue: message });
        else if (field === 'ds') notifyErrorMessage(t(message, { defaultValue: message }));
      }
      return rows;
    }
  };

  return (
    <AppModal
      opened={opened && ok}
      onClose={onClose}
      title={t('domain.dns.edit')}
      size="lg"
      data-testid="dns-edit-modal"
    >
      {init.isPending ? (
        <Loader size="sm" role="status" aria-label={t('main.loading')} />
      ) : init.isError ? (
        <Text c="red" size="sm" role="alert">
          {t('domain.load_failed')}
        </Text>
      ) : (
        <NameserversEditForm
          init={init.data}
          mode={domain.dns.mode}
          busy={edit.isPending}
          onSubmit={submit}
          onCancel={onClose}
        />
      )}
    </AppModal>
  );
}
