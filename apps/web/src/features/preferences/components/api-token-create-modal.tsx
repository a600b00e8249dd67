import { Alert, Button, Code, Group, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { API_TOKEN_MAX_RESOURCES, API_TOKEN_NAME_MAX, type ApiTokenLevel } from '@panel247/contract/api-tokens';
import { useEffect, useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { CopyButton } from '../../../components/copy-button';
import { fieldErrorRecord } from '../../../lib/form-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useApiTokenResources } from '../api/api-token-resources';
import { useCreateApiToken } from '../api/create-api-token';
import { ApiTokenScopeLevels } from './api-token-scope-levels';
import { ReauthControls, type ReauthModalProps, reauthFactors, reauthRules, useReauthVia } from './reauth-controls';

const EXPIRY_DAYS = ['7', '30', '90', '365'] as const;

interface Values {
  name: string;
  expiresInDays: string;
  resourceIds: string[];
  password: string;
  code: string;
}

/**
 * A new API token: its name, expiry, resources and a level for each, then the password (and a current code
 * with two factors on). The secret is shown once here, with a copy button; closing forgets it.
 */
export function ApiTokenCreateModal({ opened, onClose, needsCode, hasPasskeys }: ReauthModalProps) {
  const { t } = useTranslation();
  const create = useCreateApiToken();
  const { ref: viaRef, via, choose } = useReauthVia(hasPasskeys);
  const resources = useApiTokenResources(opened);
  const [secret, setSecret] = useState<string | null>(null);
  // Each chosen resource's level; a resource not set here is read (the least).
  const [levels, setLevels] = useState<Record<number, ApiTokenLevel>>({});
  const form = useForm<Values>({
    // Controlled: the list of levels follows the chosen resources as they change.
    mode: 'controlled',
    initialValues: { name: '', expiresInDays: '30', resourceIds: [], password: '', code: '' },
    validate: {
      name: (value) => (value.trim() ? null : t('validation.required')),
      resourceIds: (value) => (value.length > 0 ? null : t('api_tokens.choose_resources')),
      ...reauthRules(needsCode, viaRef, t('validation.required')),
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (opened) {
      reset();
      setSecret(null);
      setLevels({});
    }
  }, [opened, reset]);

  const submit = form.onSubmit(async (values) => {
    try {
      const answer = await create.mutateAsync({
        name: values.name.trim(),
        expiresInDays: Number(values.expiresInDays),
        scope: values.resourceIds.map((id) => ({ resourceId: Number(id), level: levelOf(Number(id)) })),
        ...reauthFactors(values, { needsCode, hasPasskeys }, viaRef.current),
      });
      notifySuccess(answer.system.info);
      setSecret(answer.data.token);
    } catch (error) {
      notifyError(error);
      // The server names the scope `scope`; this form calls it `resourceIds`.
      const { scope, ...errors } = fieldErrorRecord(error);
      form.setErrors(scope ? { ...errors, resourceIds: scope } : errors);
    }
  });

  const offered = resources.data?.resources ?? [];
  const options = offered.map((entry) => ({ value: String(entry.id), label: entry.reference }));
  const chosen = form.values.resourceIds.flatMap((id) => offered.filter((entry) => String(entry.id) === id));
  // Never above what the user has there, whatever was picked before.
  function levelOf(id: number): ApiTokenLevel {
    const most = offered.find((entry) => entry.id === id)?.level ?? 'read';
    return most === 'write' ? (levels[id] ?? 'read') : 'read';
  }

  return (
    <AppModal
      opened={opened}
      onClose={onClose}
      escapeMode={secret ? 'none' : 'double'}
      title={t('api_tokens.create_title')}
      data-testid="api-token-create-modal"
    >
      {secret ? (
        <Stack gap="md">
          <Alert color="yellow" variant="light" title={t('api_tokens.copy_now_title')}>
            {t('api_tokens.copy_now_text')}
          </Alert>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code fz="sm" style={{ overflowWrap: 'anywhere', flex: 1 }} data-testid="api-token-secret">
              {secret}
            </Code>
            <CopyButton value={secret} label={t('api_tokens.copy')} />
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="api-token-done">
              {t('api_tokens.done')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('api_tokens.name')}
              description={t('api_tokens.name_hint')}
              maxLength={API_TOKEN_NAME_MAX}
              required
              data-autofocus
              data-testid="api-token-name"
              key={form.key('name')}
              {...form.getInputProps('name')}
            />
            <Select
              label={t('api_tokens.expiry')}
              allowDeselect={false}
              data={EXPIRY_DAYS.map((days) => ({ value: days, label: t('api_tokens.days', { count: Number(days) }) }))}
              data-testid="api-token-expiry"
              key={form.key('expiresInDays')}
              {...form.getInputProps('expiresInDays')}
            />
            <MultiSelect
              label={t('api_tokens.resources')}
              description={t('api_tokens.resources_hint', { max: API_TOKEN_MAX_RESOURCES })}
              placeholder={resources.isPending ? t('main.loading') : undefined}
              data={options}
              searchable
              limit={50}
              maxValues={API_TOKEN_MAX_RESOURCES}
              nothingFoundMessage={t('api_tokens.no_resources')}
              required
              data-testid="api-token-resources"
              key={form.key('resourceIds')}
              {...form.getInputProps('resourceIds')}
            />
            <ApiTokenScopeLevels
              chosen={chosen}
              levels={levels}
              onChange={(id, level) => setLevels((current) => ({ ...current, [id]: level }))}
            />
            <ReauthControls
              form={form}
              needsCode={needsCode}
              hasPasskeys={hasPasskeys}
              via={via}
              onChoose={choose}
              pending={create.isPending}
              onCancel={onClose}
              testId="api-token"
              labels={{
                submit: t('api_tokens.create'),
                withCode: t('api_tokens.create_with_code'),
                withPasskey: t('api_tokens.create_with_passkey'),
              }}
            />
          </Stack>
        </form>
      )}
    </AppModal>
  );
}
