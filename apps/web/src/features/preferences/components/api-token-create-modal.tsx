import { Alert, Button, Code, Group, MultiSelect, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { API_TOKEN_MAX_RESOURCES, API_TOKEN_NAME_MAX, type ApiTokenLevel } from '@panel247/contract/api-tokens';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal';
import { CopyButton } from '../../../components/copy-button';
import { fieldErrorRecord } from '../../../lib/form-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useApiTokenResources } from '../api/api-token-resources';
import { useCreateApiToken } from '../api/create-api-token';
import { ApiTokenScopeLevels } from './api-token-scope-levels';

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
export function ApiTokenCreateModal({
  opened,
  onClose,
  needsCode,
  hasPasskeys,
}: {
  opened: boolean;
  onClose: () => void;
  /** TOTP is on: a code confirms. */
  needsCode: boolean;
  /** The user has passkeys: one of them confirms (instead of the code). */
  hasPasskeys: boolean;
}) {
  const { t } = useTranslation();
  const create = useCreateApiToken();
  // Which button submitted: read in the same click, before a state update would render.
  const viaRef = useRef<'code' | 'passkey'>(hasPasskeys ? 'passkey' : 'code');
  const [via, setVia] = useState<'code' | 'passkey'>(viaRef.current);
  const choose = (value: 'code' | 'passkey') => {
    viaRef.current = value;
    setVia(value);
  };
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
      password: (value) => (value ? null : t('validation.required')),
      code: (value) => (!needsCode || viaRef.current === 'passkey' || value.trim() ? null : t('validation.required')),
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
        password: values.password,
        code: needsCode ? values.code.trim() : undefined,
        withPasskey: hasPasskeys && viaRef.current === 'passkey',
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
            <Text size="sm">
              {t(
                needsCode && hasPasskeys
                  ? 'api_tokens.reauth_with_code_or_passkey'
                  : needsCode
                    ? 'api_tokens.reauth_with_code'
                    : hasPasskeys
                      ? 'api_tokens.reauth_with_passkey'
                      : 'api_tokens.reauth',
              )}
            </Text>
            <PasswordInput
              label={t('preferences.actual_password')}
              autoComplete="current-password"
              required
              data-testid="api-token-password"
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            {needsCode ? (
              <TextInput
                label={t('two_factor.code_or_recovery')}
                autoComplete="one-time-code"
                autoCapitalize="none"
                spellCheck={false}
                required={!hasPasskeys}
                data-testid="api-token-code"
                key={form.key('code')}
                {...form.getInputProps('code')}
              />
            ) : null}
            <Group justify="flex-end" wrap="wrap">
              <Button variant="default" onClick={onClose}>
                {t('main.cancel')}
              </Button>
              {!hasPasskeys || needsCode ? (
                <Button
                  type="submit"
                  variant={hasPasskeys ? 'light' : 'filled'}
                  loading={create.isPending && via === 'code'}
                  onClick={() => choose('code')}
                  data-testid="api-token-submit"
                >
                  {t(hasPasskeys ? 'api_tokens.create_with_code' : 'api_tokens.create')}
                </Button>
              ) : null}
              {hasPasskeys ? (
                <Button
                  type="submit"
                  loading={create.isPending && via === 'passkey'}
                  onClick={() => choose('passkey')}
                  data-testid="api-token-submit-passkey"
                >
                  {t('api_tokens.create_with_passkey')}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </form>
      )}
    </AppModal>
  );
}
