import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { handleFormError } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/use-translation';
import { type RRsetOwner, rrsetOwnerOf, useRRsetSize } from '../api/rrset-size';
import { type DnsFormField, type DnsFormValues, dnsPayload, validateDnsForm } from '../lib/dns-form';
import { DnsRecordFields } from './dns-record-fields';

/**
 * The create and edit form. The shared record rules run on submit and on blur (same keys as the
 * server's); the server's own field errors (type, zona, value, ttl, priority) land under their
 * fields too.
 */
export function DnsRecordForm({
  mode,
  serviceId,
  zoneName,
  initialValues,
  submitting,
  onSubmit,
  onCancel,
}: {
  mode: 'create' | 'edit';
  /** The zone's service: the TTL field then says how many records of the RRset share the TTL. */
  serviceId?: number;
  zoneName: string;
  initialValues: DnsFormValues;
  submitting: boolean;
  onSubmit: (values: DnsFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<DnsFormValues>({
    mode: 'controlled',
    initialValues,
    validateInputOnBlur: true,
    validate: (values) => {
      const errors: Partial<Record<DnsFormField, string>> = {};
      for (const [field, key] of Object.entries(validateDnsForm(values, zoneName, mode))) {
        errors[field as DnsFormField] = t(key);
      }
      return errors;
    },
  });

  const payload = dnsPayload(form.getValues());
  const owner = rrsetOwnerOf(payload.zona, payload.type);
  const ttlNote =
    serviceId !== undefined && owner ? (
      <RRsetTtlNote serviceId={serviceId} owner={owner} zoneName={zoneName} mode={mode} />
    ) : undefined;

  const submit = form.onSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      handleFormError(form, error);
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid={`dns-${mode}-form`}>
      <Stack gap="md">
        <DnsRecordFields form={form} mode={mode} zoneName={zoneName} ttlNote={ttlNote} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('main.cancel')}
          </Button>
          <Button type="submit" loading={submitting} data-testid="dns-submit">
            {t('main.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Under the TTL: the DNS server serves one TTL per name and type, so the record's TTL becomes
 * its RRset's; said when the RRset has other records.
 */
function RRsetTtlNote({
  serviceId,
  owner,
  zoneName,
  mode,
}: {
  serviceId: number;
  owner: RRsetOwner;
  zoneName: string;
  mode: 'create' | 'edit';
}) {
  const { t } = useTranslation();
  const size = useRRsetSize(serviceId, owner).data;
  const records = size === undefined ? 0 : mode === 'create' ? size + 1 : size;
  if (records < 2) return null;
  const name = owner.zona ? `${owner.zona}.${zoneName}` : zoneName;
  return <span data-testid="dns-ttl-rrset">{t('dns.ttl_rrset', { records, name, type: owner.type })}</span>;
}
