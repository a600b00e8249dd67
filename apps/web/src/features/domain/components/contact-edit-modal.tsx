import { Button, Group, Menu, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { DomainData } from '@panel247/contract/domain';
import {
  CONTACT_EDIT_MODES,
  type ContactRole,
  identLabelKey,
  requiredContactFields,
  spanishIdKind,
} from '@panel247/contract/domain-rules';
import { IconCopy } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useSaveContact } from '../api/save-contact';
import { useSaveOwnerContact } from '../api/save-owner-contact';
import {
  type ContactFormValues,
  contactErrors,
  contactPayload,
  contactToValues,
  copyFrom,
  copySources,
} from '../lib/contact-form';
import { useActionError, useActionGuard } from '../lib/use-action-guard';
import { AddressFields } from './address-fields';

function ContactForm({
  id,
  data,
  role,
  ownerVisible,
  onClose,
}: {
  id: number;
  data: DomainData;
  role: ContactRole;
  ownerVisible: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const saveOwner = useSaveOwnerContact(id);
  const saveOther = useSaveContact(id);
  const save = role === 'registrant' ? saveOwner : saveOther;
  const onError = useActionError();
  const [freePostalCode, setFreePostalCode] = useState(true);
  const onPostalCodesKnown = useCallback((known: boolean) => setFreePostalCode(!known), []);
  const form = useForm<ContactFormValues>({
    mode: 'controlled',
    initialValues: { ...contactToValues(data[role]), mode: 'only_contact' },
  });
  const values = form.values;
  const required = new Set<string>(requiredContactFields(values.isOrg));
  const sources = copySources(role, ownerVisible);
  const spanish = values.country === 'ES';
  const kind = spanish ? spanishIdKind(values.identNumber) : undefined;

  const text = (field: keyof ContactFormValues, extra: Record<string, unknown> = {}) => ({
    label: t(`domain.contact.${field === 'identNumber' ? 'ident' : field}`),
    required: required.has(field),
    'data-testid': `contact-${field}`,
    ...form.getInputProps(field),
    ...extra,
  });

  const submit = form.onSubmit(async (current) => {
    const errors = contactErrors(current, freePostalCode);
    if (Object.keys(errors).length > 0) {
      form.setErrors(Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, t(key)])));
      return;
    }
    try {
      const result = await save.mutateAsync(contactPayload(role, current));
      notifySuccess(result.info);
      onClose();
    } catch (error) {
      onError(error, onClose, form);
    }
  });

  return (
    <form onSubmit={submit} noValidate data-testid="contact-form" data-role={role}>
      <Stack gap="sm">
        {sources.length > 0 ? (
          <Group justify="flex-end">
            <Menu position="bottom-end" withArrow shadow="md">
              <Menu.Target>
                <Button
                  variant="light"
                  size="compact-sm"
                  leftSection={<IconCopy size={14} aria-hidden />}
                  data-testid="contact-copy"
                >
                  {t('domain.contact.copy_from')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {sources.map((source) => (
                  <Menu.Item
                    key={source}
                    onClick={() => {
                      form.setValues(copyFrom(form.getValues(), data, source));
                      form.clearErrors();
                    }}
                    data-testid={`contact-copy-${source}`}
                  >
                    {t(`domain.contact.role_${source}`)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          </Group>
        ) : null}
        <Radio.Group
          label={t('domain.contact.kind')}
          value={values.isOrg ? 'organization' : 'individual'}
          onChange={(value) => form.setFieldValue('isOrg', value === 'organization')}
        >
          <Group gap="lg" mt={6}>
            <Radio value="individual" label={t('domain.contact.individual')} data-testid="contact-individual" />
            <Radio value="organization" label={t('domain.contact.organization')} data-testid="contact-organization" />
          </Group>
        </Radio.Group>
        {values.isOrg ? <TextInput {...text('orgName')} autoComplete="organization" /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
          <TextInput {...text('firstName')} autoComplete="given-name" data-autofocus />
          <TextInput {...text('lastName')} autoComplete="family-name" />
          <TextInput
            {...text('identNumber')}
            label={t(identLabelKey(values.isOrg))}
            description={
              spanish
                ? kind
                  ? t(`domain.contact.ident_kind_${kind}`)
                  : t('domain.contact.ident_spanish_hint')
                : undefined
            }
            autoComplete="off"
          />
          <TextInput {...text('email')} type="email" autoComplete="email" />
          <TextInput
            {...text('phone')}
            type="tel"
            autoComplete="tel"
            placeholder="+34.912345678"
            description={t('domain.contact.phone_hint')}
          />
        </SimpleGrid>
        <AddressFields
          values={{
            country: values.country,
            state: values.state,
            city: values.city,
            postalCode: values.postalCode,
          }}
          errors={{
            country: form.errors.country as string | undefined,
            state: form.errors.state as string | undefined,
            city: form.errors.city as string | undefined,
            postalCode: form.errors.postalCode as string | undefined,
          }}
          onChange={(patch) => {
            form.setValues(patch);
            for (const field of Object.keys(patch)) form.clearFieldError(field);
          }}
          onPostalCodesKnown={onPostalCodesKnown}
        />
        <TextInput {...text('address')} autoComplete="street-address" />
        <Radio.Group
          label={t('domain.contact.mode')}
          value={values.mode}
          onChange={(value) => form.setFieldValue('mode', value as ContactFormValues['mode'])}
        >
          <Stack gap={6} mt={6}>
            {CONTACT_EDIT_MODES.map((mode) => (
              <Radio
                key={mode}
                value={mode}
                label={t(`domain.contact.mode_${mode}`)}
                description={t(`domain.contact.mode_${mode}_hint`)}
                data-testid={`contact-mode-${mode}`}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Text size="xs" c="dimmed">
          {t('domain.contact.required_note')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('main.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="contact-submit">
            {t('main.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Edit one role's contact (registrant: domain_ownercontacts action; the others: domain_contacts action). */
export function ContactEditModal({
  id,
  data,
  role,
  allowed,
  ownerVisible,
  onClose,
}: {
  id: number;
  data: DomainData;
  role: ContactRole | null;
  allowed: boolean;
  ownerVisible: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const opened = role !== null;
  const ok = useActionGuard(opened, allowed, onClose);
  return (
    <AppModal
      opened={opened && ok}
      onClose={onClose}
      title={role ? t('domain.contact.edit_title', { role: t(`domain.contact.role_${role}`) }) : ''}
      size="xl"
      data-testid="contact-edit-modal"
    >
      {role ? (
        <ContactForm key={role} id={id} data={data} role={role} ownerVisible={ownerVisible} onClose={onClose} />
      ) : null}
    </AppModal>
  );
}
