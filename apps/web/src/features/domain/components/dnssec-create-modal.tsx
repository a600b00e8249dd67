import { Alert, Button, Divider, Group, Loader, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { DnssecCreateInitData, DnssecEntry } from '@panel247/contract/domain';
import {
  DNSSEC_ALGORITHMS,
  DNSSEC_DIGEST_TYPES,
  DNSSEC_FLAGS,
  DNSSEC_PROTOCOLS,
} from '@panel247/contract/domain-rules';
import { IconCloudDownload, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { HexText } from '../../../components/hex-text';
import { fieldErrorRecord } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useCreateDnssec } from '../api/create-dnssec';
import { useDnssecCreateInit } from '../api/get-dnssec-create-init';
import { useImportDnssecFromZone } from '../api/import-dnssec-from-zone';
import { digestLength, validateDigestForm, validatePubkeyForm } from '../lib/dnssec-rules';
import { useActionError, useActionGuard } from '../lib/use-action-guard';

type Errors = Record<string, string>;

/** Code → label options; the server's map when it has one, else the spec's codes. */
function options(map: Record<string, string> | undefined, fallback: Record<number, string>) {
  const source = map && Object.keys(map).length > 0 ? map : fallback;
  return Object.entries(source).map(([value, label]) => ({ value, label: `${value} · ${label}` }));
}

function CreatedEntries({ entries, onClose }: { entries: DnssecEntry[]; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="dnssec-created">
      <Text size="sm">{t('domain.dnssec.created_ds')}</Text>
      {entries.map((entry) => (
        <Stack key={entry.id} gap={2}>
          <Text size="sm">
            {t('domain.dnssec.keytag')}:{' '}
            <Text span fw={600} data-testid="dnssec-created-keytag">
              {entry.keytag}
            </Text>{' '}
            · {DNSSEC_ALGORITHMS[entry.algorithm] ?? entry.algorithm} ·{' '}
            {DNSSEC_DIGEST_TYPES[entry.digesttype] ?? entry.digesttype}
          </Text>
          <HexText
            value={entry.digest}
            copyLabel={t('domain.dnssec.copy_digest', { keytag: entry.keytag })}
            testId="dnssec-created-digest"
          />
        </Stack>
      ))}
      <Group justify="flex-end">
        <Button onClick={onClose} data-autofocus data-testid="dnssec-created-close">
          {t('main.close')}
        </Button>
      </Group>
    </Stack>
  );
}

function DnssecForm({
  id,
  init,
  onCreated,
  onCancel,
}: {
  id: number;
  init: DnssecCreateInitData;
  /** The entries the server added; the public-key type shows its computed DS. */
  onCreated: (entries: DnssecEntry[], showResult: boolean) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreateDnssec(id);
  const fromZone = useImportDnssecFromZone(id);
  const onError = useActionError();
  const pubkey = init.type === 'pubkey';
  const [values, setValues] = useState({
    keytag: '',
    algorithm: '13',
    digesttype: '2',
    digest: '',
    flags: '257',
    protocols: '3',
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = (field: keyof typeof values, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: '' }));
  };
  const length = digestLength(values.digesttype);

  const failed = (error: unknown) =>
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local = pubkey ? validatePubkeyForm(values) : validateDigestForm(values);
    const texts: Errors = {};
    for (const [field, { key, values: vars }] of Object.entries(local)) texts[field] = t(key, vars ?? {});
    setErrors(texts);
    if (Object.keys(texts).length > 0) return;
    try {
      const result = await create.mutateAsync(
        pubkey
          ? {
              kind: 'pubkey',
              flags: values.flags,
              protocols: values.protocols,
              algorithm: values.algorithm,
              digest: values.digest.replace(/\s+/g, ''),
            }
          : {
              kind: 'digest',
              keytag: values.keytag.trim(),
              algorithm: values.algorithm,
              digesttype: values.digesttype,
              digest: values.digest.trim().toUpperCase(),
            },
      );
      notifySuccess(result.info);
      onCreated(result.created, pubkey);
    } catch (error) {
      failed(error);
    }
  };

  const importZone = async () => {
    try {
      const result = await fromZone.mutateAsync();
      notifySuccess(result.info);
      onCreated(result.created, true);
    } catch (error) {
      failed(error);
    }
  };

  const algorithm = (
    <Select
      label={t('domain.dnssec.algorithm')}
      required={!pubkey}
      data={options(init.algorithms, DNSSEC_ALGORITHMS)}
      value={values.algorithm}
      onChange={(value) => set('algorithm', value ?? '')}
      allowDeselect={false}
      error={errors.algorithm}
      data-testid="dnssec-algorithm"
      comboboxProps={{ withinPortal: true }}
    />
  );

  return (
    <form onSubmit={submit} noValidate data-testid="dnssec-form" data-type={init.type}>
      <Stack gap="sm">
        {init.zoneKeysAvailable ? (
          <>
            <Alert variant="light" color="teal" icon={<IconInfoCircle size={18} aria-hidden />}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t('domain.dnssec.from_zone_hint')}</Text>
                <Button
                  size="compact-sm"
                  variant="light"
                  color="teal"
                  leftSection={<IconCloudDownload size={14} aria-hidden />}
                  loading={fromZone.isPending}
                  onClick={() => void importZone()}
                  data-testid="dnssec-from-zone"
                >
                  {t('domain.dnssec.from_zone')}
                </Button>
              </Stack>
            </Alert>
            <Divider label={t('domain.dnssec.or_manual')} labelPosition="center" />
          </>
        ) : null}
        <Text size="sm" c="dimmed">
          {pubkey ? t('domain.dnssec.type_pubkey') : t('domain.dnssec.type_digest')}
        </Text>
        {pubkey ? (
          <>
            <Group grow align="flex-start">
              <Select
                label={t('domain.dnssec.flags')}
                data={options(init.flags, DNSSEC_FLAGS)}
                value={values.flags}
                onChange={(value) => set('flags', value ?? '')}
                allowDeselect={false}
                error={errors.flags}
                data-testid="dnssec-flags"
              />
              <Select
                label={t('domain.dnssec.protocol')}
                data={options(init.protocols, DNSSEC_PROTOCOLS)}
                value={values.protocols}
                onChange={(value) => set('protocols', value ?? '')}
                allowDeselect={false}
                error={errors.protocols}
                data-testid="dnssec-protocol"
              />
            </Group>
            {algorithm}
            <Textarea
              label={t('domain.dnssec.public_key')}
              description={t('domain.dnssec.public_key_hint')}
              autosize
              minRows={3}
              maxRows={8}
              spellCheck={false}
              value={values.digest}
              error={errors.digest}
              data-testid="dnssec-public-key"
              onChange={(event) => set('digest', event.currentTarget.value)}
            />
          </>
        ) : (
          <>
            <TextInput
              label={t('domain.dnssec.keytag')}
              description={t('domain.dnssec.keytag_hint')}
              required
              inputMode="numeric"
              autoComplete="off"
              value={values.keytag}
              error={errors.keytag}
              data-autofocus
              data-testid="dnssec-keytag"
              onChange={(event) => set('keytag', event.currentTarget.value.replace(/\D/g, '').slice(0, 5))}
            />
            {algorithm}
            <Select
              label={t('domain.dnssec.digest_type')}
              required
              data={options(init.digestTypes, DNSSEC_DIGEST_TYPES)}
              value={values.digesttype}
              onChange={(value) => set('digesttype', value ?? '')}
              allowDeselect={false}
              error={errors.digesttype}
              data-testid="dnssec-digest-type"
            />
            <Textarea
              label={t('domain.dnssec.digest')}
              description={length ? t('domain.dnssec.digest_hint', { length }) : undefined}
              required
              autosize
              minRows={2}
              spellCheck={false}
              value={values.digest}
              error={errors.digest}
              data-testid="dnssec-digest"
              onChange={(event) => set('digest', event.currentTarget.value.replace(/\s+/g, ''))}
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('main.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending} data-testid="dnssec-submit">
            {t('domain.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function DnssecCreateModal({
  id,
  opened,
  allowed,
  onClose,
}: {
  id: number;
  opened: boolean;
  allowed: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ok = useActionGuard(opened, allowed, onClose);
  const init = useDnssecCreateInit(id, opened && ok);
  const [created, setCreated] = useState<DnssecEntry[] | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <AppModal
      opened={opened && ok}
      onClose={close}
      title={t('domain.dnssec.create')}
      size="lg"
      data-testid="dnssec-create-modal"
    >
      {created ? (
        <CreatedEntries entries={created} onClose={close} />
      ) : init.isPending ? (
        <Loader size="sm" role="status" aria-label={t('main.loading')} />
      ) : init.isError ? (
        <Text c="red" size="sm" role="alert">
          {t('domain.load_failed')}
        </Text>
      ) : (
        <DnssecForm
          id={id}
          init={init.data}
          onCancel={close}
          onCreated={(entries, showResult) => {
            if (showResult && entries.length > 0) setCreated(entries);
            else close();
          }}
        />
      )}
    </AppModal>
  );
}
