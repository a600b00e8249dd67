import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { GlueRecord } from '@panel247/contract/domain';
import { type FormEvent, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { fieldErrorRecord } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useCreateGlueRecord } from '../api/create-glue-record';
import { useSaveGlueRecord } from '../api/save-glue-record';
import { glueNameError } from '../lib/glue';
import { ipv4Error, ipv6Error } from '../lib/ip';
import { useActionError, useActionGuard } from '../lib/use-action-guard';
import { IpInput } from './ip-input';

interface Values {
  name: string;
  ip: string;
  ipv6: string;
}

function GlueForm({
  id,
  domainName,
  record,
  onDone,
  onCancel,
}: {
  id: number;
  domainName: string;
  record: GlueRecord | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreateGlueRecord(id);
  const save = useSaveGlueRecord(id);
  const onError = useActionError();
  const [values, setValues] = useState<Values>({ name: '', ip: record?.ip ?? '', ipv6: record?.ipv6 ?? '' });
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const set = (field: keyof Values, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Partial<Record<keyof Values, string>> = {};
    if (!record) {
      const nameError = glueNameError(values.name, domainName);
      if (nameError) local.name = t(nameError, { domain: domainName });
    }
    const ipError = ipv4Error(values.ip, true);
    if (ipError) local.ip = t(ipError);
    const v6Error = ipv6Error(values.ipv6);
    if (v6Error) local.ipv6 = t(v6Error);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      const ipv6 = values.ipv6.trim();
      const result = record
        ? await save.mutateAsync({ glueId: record.id, ip: values.ip, ipv6 })
        : await create.mutateAsync({ name: values.name.trim().toLowerCase(), ip: values.ip, ipv6 });
      notifySuccess(result.info);
      onDone();
    } catch (error) {
      onError(error, onCancel, {
        setErrors: () =>
          setErrors(
            Object.fromEntries(
              Object.entries(fieldErrorRecord(error)).map(([field, message]) => [
                field,
                t(message, { defaultValue: message }),
              ]),
            ),
          ),
      });
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="glue-form">
      <Stack gap="sm">
        {record ? (
          <Text fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="glue-form-name">
            {record.name}
          </Text>
        ) : (
          <TextInput
            label={t('domain.glue.name')}
            description={t('domain.glue.name_hint', { domain: domainName })}
            required
            value={values.name}
            error={errors.name}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
            data-testid="glue-name"
            rightSection={
              <Text size="sm" c="dimmed" pr="xs" aria-hidden>
                .{domainName}
              </Text>
            }
            rightSectionWidth={Math.min(220, domainName.length * 8 + 24)}
            rightSectionPointerEvents="none"
            onChange={(event) => set('name', event.currentTarget.value)}
          />
        )}
        <IpInput
          label={t('domain.glue.ip')}
          required
          value={values.ip}
          error={errors.ip}
          placeholder="192.0.2.10"
          data-testid="glue-ip"
          data-autofocus={record ? true : undefined}
          onChange={(value) => set('ip', value)}
          onBlur={() => {
            const error = values.ip ? ipv4Error(values.ip, true) : null;
            if (error) setErrors((current) => ({ ...current, ip: t(error) }));
          }}
        />
        <TextInput
          label={t('domain.glue.ipv6')}
          value={values.ipv6}
          error={errors.ipv6}
          placeholder="2001:db8::10"
          autoComplete="off"
          spellCheck={false}
          data-testid="glue-ipv6"
          onChange={(event) => set('ipv6', event.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('main.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || save.isPending} data-testid="glue-submit">
            {record ? t('main.save') : t('domain.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Create (record null) or edit (ip, ipv6) a glue record. */
export function GlueFormModal({
  id,
  domainName,
  record,
  opened,
  allowed,
  onClose,
  onDone,
}: {
  id: number;
  domainName: string;
  record: GlueRecord | null;
  opened: boolean;
  allowed: boolean;
  onClose: () => void;
  /** After a successful save (defaults to onClose). */
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const ok = useActionGuard(opened, allowed, onClose);
  return (
    <AppModal
      opened={opened && ok}
      onClose={onClose}
      title={record ? t('domain.glue.edit') : t('domain.glue.create')}
      data-testid={record ? 'glue-edit-modal' : 'glue-create-modal'}
    >
      <GlueForm
        key={record?.id ?? 'new'}
        id={id}
        domainName={domainName}
        record={record}
        onDone={onDone ?? onClose}
        onCancel={onClose}
      />
    </AppModal>
  );
}
