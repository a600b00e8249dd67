import { Group, NativeSelect, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Redirection } from '@panel247/contract/hosting';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useCreateRedirection } from '../api/create-redirection';
import { useSaveRedirection } from '../api/save-redirection';
import {
  REDIRECT_TYPE_LIST,
  type RedirectionFormValues,
  redirectionValues,
  toCreatePayload,
  toSavePayload,
  validateRedirection,
} from '../lib/redirection-form';

function RedirectionForm({
  redirection,
  serviceId,
  hosts,
  onClose,
}: {
  redirection: Redirection | null;
  serviceId: number;
  hosts: { value: string; label: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const creating = redirection === null;
  const create = useCreateRedirection(serviceId);
  const save = useSaveRedirection(serviceId);
  const form = useForm<RedirectionFormValues>({
    mode: 'controlled',
    initialValues: redirectionValues(redirection),
    validate: (values) =>
      Object.fromEntries(Object.entries(validateRedirection(values, creating)).map(([field, key]) => [field, t(key)])),
  });
  const values = form.getValues();
  const host = hosts.find((choice) => choice.value === values.subDomain)?.label ?? hosts[0]?.label ?? '';
  const path = values.recurso.trim().replace(/^\/+|\/+$/g, '');
  const submit = form.onSubmit(async (submitted) => {
    try {
      const { info } = creating
        ? await create.mutateAsync(toCreatePayload(submitted))
        : await save.mutateAsync({ id: redirection.id, payload: toSavePayload(submitted) });
      notifySuccess(info);
      onClose();
    } catch (error) {
      // What was typed stays; the server's errors land under their fields.
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="hosting-redirection-form">
      <Stack gap="md">
        {creating ? (
          <>
            <NativeSelect
              {...form.getInputProps('subDomain')}
              label={t('hosting.redirection_host')}
              data={hosts}
              data-autofocus
              data-testid="hosting-redirection-host"
            />
            <TextInput
              {...form.getInputProps('recurso')}
              onBlur={blurCheck(form, 'recurso')}
              label={t('hosting.redirection_path')}
              description={t('hosting.redirection_path_hint')}
              maxLength={255}
              autoComplete="off"
              spellCheck={false}
              data-testid="hosting-redirection-path"
            />
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="hosting-redirection-origin">
              {t('hosting.redirection_origin_preview', { origin: path ? `${host}/${path}` : host })}
            </Text>
          </>
        ) : (
          <Text size="sm">
            {t('hosting.origin')}:{' '}
            <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {redirection.origin}
            </Text>
          </Text>
        )}
        <TextInput
          {...form.getInputProps('urlRedir')}
          onBlur={blurCheck(form, 'urlRedir')}
          label={t('hosting.destination')}
          description={t('hosting.destination_hint')}
          placeholder="https://"
          type="url"
          required
          maxLength={2048}
          autoComplete="off"
          spellCheck={false}
          data-autofocus={creating ? undefined : true}
          data-testid="hosting-redirection-url-input"
        />
        <Radio.Group
          {...form.getInputProps('redirType')}
          label={t('hosting.redir_type')}
          data-testid="hosting-redirection-type-input"
        >
          <Group mt={6} gap="lg">
            {REDIRECT_TYPE_LIST.map((type) => (
              <Radio
                key={type}
                value={type}
                label={t(`hosting.redir_type_${type}`)}
                data-testid={`hosting-type-${type}`}
              />
            ))}
          </Group>
        </Radio.Group>
        {values.redirType === 'frame' ? (
          <Stack gap="sm" data-testid="hosting-frame-fields">
            <TextInput
              {...form.getInputProps('iframeTitle')}
              label={t('hosting.iframe_title')}
              maxLength={500}
              data-testid="hosting-iframe-title"
            />
            <Textarea
              {...form.getInputProps('iframeDescription')}
              label={t('hosting.iframe_description')}
              maxLength={500}
              autosize
              minRows={2}
              data-testid="hosting-iframe-description"
            />
            <TextInput
              {...form.getInputProps('iframeKeywords')}
              label={t('hosting.iframe_keywords')}
              description={t('hosting.iframe_keywords_hint')}
              maxLength={500}
              data-testid="hosting-iframe-keywords"
            />
          </Stack>
        ) : null}
        <FormButtons
          submitting={create.isPending || save.isPending}
          onCancel={onClose}
          submitTestId="hosting-redirection-submit"
          submitLabel={creating ? t('hosting.redirection_create') : undefined}
        />
      </Stack>
    </form>
  );
}

/** Create (`target` 'new') or edit a redirection; needs the redirection right. */
export function RedirectionModal({
  target,
  onClose,
  serviceId,
  hosts,
  allowed,
}: {
  target: Redirection | 'new' | null;
  onClose: () => void;
  serviceId: number;
  hosts: { value: string; label: string }[];
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(target !== null, allowed, onClose);
  const redirection = target === 'new' ? null : target;
  return (
    <AppModal
      opened={target !== null && shown}
      onClose={onClose}
      title={t(target === 'new' ? 'hosting.redirection_create_title' : 'hosting.redirection_edit_title')}
      size="lg"
      data-testid="hosting-redirection-modal"
    >
      {target !== null ? (
        <RedirectionForm
          key={redirection?.id ?? 'new'}
          redirection={redirection}
          serviceId={serviceId}
          hosts={hosts}
          onClose={onClose}
        />
      ) : null}
    </AppModal>
  );
}
