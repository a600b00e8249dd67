import { Group, NativeSelect, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  CAA_TAGS,
  composeSrvName,
  DNS_PRIORITIES,
  DNS_TTLS,
  DNS_TYPES,
  hasPriority,
  SRV_PROTOCOLS,
  SRV_SERVICES,
  valueLabelKey,
} from '@panel247/contract/dns-rules';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { type DnsFormValues, OTHER_SRV_SERVICE } from '../lib/dns-form';
import { fullName, ttlLabelKey } from '../lib/dns-format';

export type DnsForm = UseFormReturnType<DnsFormValues>;

/** The name the record will have, as the user types it (SRV: `_service._protocol` in front). */
export function previewName(values: DnsFormValues, zoneName: string): string {
  const zona =
    values.type === 'SRV'
      ? composeSrvName(values.srvService.trim(), values.srvProtocol, values.zona.trim())
      : values.zona;
  return fullName({ zona: zona.trim().replace(/^@$/, ''), referencePunycode: zoneName });
}

/**
 * The record form's fields, by type (spec section 4): SRV shows service, protocol, priority and
 * port; CAA flag and tag; MX and SRV a priority. In edit the type and the name are fixed.
 */
export function DnsRecordFields({
  form,
  mode,
  zoneName,
  ttlNote,
}: {
  form: DnsForm;
  mode: 'create' | 'edit';
  zoneName: string;
  /** Under the TTL: the other records of the RRset that take it too. */
  ttlNote?: ReactNode;
}) {
  const { t } = useTranslation();
  const { values } = form;
  const type = values.type;
  const ttlOptions = DNS_TTLS.map((ttl) => ({ value: String(ttl), label: t(ttlLabelKey(ttl)) }));
  const priorityOptions = DNS_PRIORITIES.map((priority) => ({ value: String(priority), label: String(priority) }));
  const name = previewName(values, zoneName);

  return (
    <Stack gap="sm">
      {mode === 'create' ? (
        <NativeSelect
          label={t('dns.type')}
          data={[...DNS_TYPES]}
          data-autofocus
          data-testid="dns-field-type"
          {...form.getInputProps('type')}
          onChange={(event) => {
            form.setFieldValue('type', event.currentTarget.value);
            form.clearErrors();
          }}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput label={t('dns.type')} value={type} readOnly data-testid="dns-field-type" />
          <TextInput label={t('dns.name')} value={name} readOnly data-testid="dns-field-name" />
        </SimpleGrid>
      )}

      {mode === 'create' && type === 'SRV' ? (
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <NativeSelect
            label={t('dns.srv_service_choice')}
            data={[
              { value: OTHER_SRV_SERVICE, label: t('dns.srv_other') },
              ...SRV_SERVICES.map(([label, value]) => ({ value, label })),
            ]}
            data-testid="dns-field-srv-choice"
            value={values.srvChoice}
            onChange={(event) => {
              const choice = event.currentTarget.value;
              // a predefined service fills the service field; 'other' empties it
              form.setValues({ srvChoice: choice, srvService: choice });
              form.clearFieldError('srvService');
            }}
          />
          <TextInput
            label={t('dns.srv_service')}
            placeholder="_xmpp"
            required
            data-testid="dns-field-srv-service"
            {...form.getInputProps('srvService')}
            readOnly={values.srvChoice !== OTHER_SRV_SERVICE}
          />
          <NativeSelect
            label={t('dns.srv_protocol')}
            data={[...SRV_PROTOCOLS]}
            data-testid="dns-field-srv-protocol"
            {...form.getInputProps('srvProtocol')}
          />
        </SimpleGrid>
      ) : null}

      {mode === 'create' ? (
        <TextInput
          label={t('dns.name')}
          description={t('dns.name_hint', { zone: zoneName })}
          autoComplete="off"
          spellCheck={false}
          data-testid="dns-field-zona"
          {...form.getInputProps('zona')}
        />
      ) : null}

      {hasPriority(type) || type === 'SRV' ? (
        <SimpleGrid cols={{ base: 1, xs: type === 'SRV' ? 3 : 1 }}>
          <NativeSelect
            label={t('dns.priority')}
            data={priorityOptions}
            data-testid="dns-field-priority"
            {...form.getInputProps('priority')}
          />
          {type === 'SRV' ? (
            <TextInput
              label={t('dns.srv_weight')}
              description={t('dns.srv_weight_hint')}
              // under the input, so the three inputs of the row stay level
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              placeholder={values.priority}
              inputMode="numeric"
              data-testid="dns-field-weight"
              {...form.getInputProps('srvWeight')}
            />
          ) : null}
          {type === 'SRV' ? (
            <TextInput
              label={t('dns.srv_port')}
              inputMode="numeric"
              required
              data-testid="dns-field-port"
              {...form.getInputProps('port')}
            />
          ) : null}
        </SimpleGrid>
      ) : null}

      {type === 'CAA' ? (
        // the flag is a number of three digits; the tag's choices are sentences and get the rest
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('dns.caa_flag')}
            inputMode="numeric"
            required
            w={110}
            data-testid="dns-field-caa-flag"
            {...form.getInputProps('caaFlag')}
          />
          <NativeSelect
            label={t('dns.caa_tag')}
            data={CAA_TAGS.map((tag) => ({ value: tag, label: t(`dns.caa_tag_${tag}`) }))}
            style={{ flex: '1 1 240px', minWidth: 0 }}
            data-testid="dns-field-caa-tag"
            {...form.getInputProps('caaTag')}
          />
        </Group>
      ) : null}

      {type === 'TXT' ? (
        <Textarea
          label={t(valueLabelKey(type))}
          required
          autosize
          minRows={1}
          maxRows={6}
          spellCheck={false}
          data-testid="dns-field-value"
          {...form.getInputProps('value')}
        />
      ) : (
        <TextInput
          label={t(valueLabelKey(type))}
          required
          autoComplete="off"
          spellCheck={false}
          data-testid="dns-field-value"
          {...form.getInputProps('value')}
        />
      )}

      <NativeSelect
        label={t('dns.ttl')}
        data={ttlOptions}
        data-testid="dns-field-ttl"
        description={ttlNote}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        {...form.getInputProps('ttl')}
      />
      {mode === 'create' ? (
        <Text size="xs" c="dimmed" data-testid="dns-full-name">
          {t('dns.full_name', { name })}
        </Text>
      ) : null}
    </Stack>
  );
}
