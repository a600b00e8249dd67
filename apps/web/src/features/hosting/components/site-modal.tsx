import { Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Subdomain } from '@panel247/contract/hosting';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useCreateSubdomain } from '../api/create-subdomain';
import { useSaveSubdomain } from '../api/save-subdomain';
import { siteHost } from '../lib/hosting-rows';
import { type SiteFormValues, siteValues, toCreatePayload, toSavePayload, validateSite } from '../lib/site-form';

/** What the dialog is open for: a new site (maybe with its subdomain given), or an existing one. */
export type SiteTarget = { kind: 'new'; subDomain?: string } | { kind: 'edit'; site: Subdomain };

const PEM_PROPS = {
  autosize: true,
  minRows: 4,
  maxRows: 12,
  spellCheck: false,
  autoComplete: 'off',
  styles: { input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-xs)' } },
} as const;

function SiteForm({
  target,
  serviceId,
  domain,
  onClose,
}: {
  target: SiteTarget;
  serviceId: number;
  domain: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const site = target.kind === 'edit' ? target.site : null;
  // The subdomain cannot change once given: by the site, or by whoever opened the dialog.
  const locked = site !== null || Boolean(target.kind === 'new' && target.subDomain);
  const create = useCreateSubdomain(serviceId);
  const save = useSaveSubdomain(serviceId);
  const form = useForm<SiteFormValues>({
    mode: 'controlled',
    initialValues: siteValues(site, target.kind === 'new' ? (target.subDomain ?? '') : ''),
    validate: (values) =>
      Object.fromEntries(Object.entries(validateSite(values, site)).map(([field, key]) => [field, t(key)])),
  });
  const values = form.getValues();
  const keyInstalled = site?.ssl.info?.keyInstalled ?? false;
  const suffix = `.${domain}`;
  const submit = form.onSubmit(async (submitted) => {
    try {
      const { info } = site
        ? await save.mutateAsync({ id: site.id, payload: toSavePayload(submitted, site) })
        : await create.mutateAsync(toCreatePayload(submitted));
      notifySuccess(info);
      onClose();
    } catch (error) {
      // What was typed stays (the key too); the server's errors land under their fields.
      handleFormError(form, error);
    }
  });
  return (
    <form onSubmit={submit} noValidate data-testid="hosting-site-form">
      <Stack gap="md">
        {site ? (
          <Text size="sm">
            {t('hosting.site')}:{' '}
            <Text component="span" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="hosting-site-host">
              {siteHost(site.subdominio, site.referencePunycode)}
            </Text>
          </Text>
        ) : (
          <TextInput
            {...form.getInputProps('subDomain')}
            onBlur={blurCheck(form, 'subDomain')}
            label={t('hosting.subdomain')}
            description={t('hosting.subdomain_hint')}
            rightSection={
              <Text size="sm" c="dimmed" pr="xs" style={{ whiteSpace: 'nowrap' }} aria-hidden>
                {suffix}
              </Text>
            }
            rightSectionWidth={`calc(${suffix.length}ch + 1.25rem)`}
            rightSectionPointerEvents="none"
            readOnly={locked}
            required
            maxLength={190}
            autoComplete="off"
            spellCheck={false}
            data-autofocus={locked ? undefined : true}
            data-testid="hosting-site-subdomain"
          />
        )}
        <TextInput
          {...form.getInputProps('folder')}
          onBlur={blurCheck(form, 'folder')}
          label={t('hosting.folder')}
          description={t('hosting.folder_hint')}
          required
          maxLength={255}
          autoComplete="off"
          spellCheck={false}
          data-autofocus={locked ? true : undefined}
          data-testid="hosting-site-folder-input"
        />
        <Switch
          {...form.getInputProps('ssl', { type: 'checkbox' })}
          label={t('hosting.ssl_switch')}
          description={t('hosting.ssl_switch_hint')}
          data-testid="hosting-site-ssl-switch"
        />
        {values.ssl ? (
          <Stack gap="sm" data-testid="hosting-site-pem">
            <Textarea
              {...form.getInputProps('cert')}
              {...PEM_PROPS}
              label={t('hosting.cert')}
              placeholder="-----BEGIN CERTIFICATE-----"
              data-testid="hosting-site-cert"
            />
            <Textarea
              {...form.getInputProps('certkey')}
              {...PEM_PROPS}
              label={t('hosting.certkey')}
              description={keyInstalled ? t('hosting.certkey_keep') : undefined}
              placeholder={keyInstalled ? t('hosting.key_installed') : '-----BEGIN PRIVATE KEY-----'}
              data-testid="hosting-site-key"
            />
            <Textarea
              {...form.getInputProps('certchain')}
              {...PEM_PROPS}
              label={t('hosting.certchain')}
              description={t('hosting.certchain_hint')}
              data-testid="hosting-site-chain"
            />
          </Stack>
        ) : null}
        <FormButtons
          submitting={create.isPending || save.isPending}
          onCancel={onClose}
          submitTestId="hosting-site-submit"
          submitLabel={site ? undefined : t('hosting.site_create')}
        />
      </Stack>
    </form>
  );
}

/** Create or edit a site (needs the subdomain right). */
export function SiteModal({
  target,
  onClose,
  serviceId,
  domain,
  allowed,
}: {
  target: SiteTarget | null;
  onClose: () => void;
  serviceId: number;
  domain: string;
  allowed: boolean;
}) {
  const { t } = useTranslation();
  const shown = useRightGuard(target !== null, allowed, onClose);
  return (
    <AppModal
      opened={target !== null && shown}
      onClose={onClose}
      title={t(target?.kind === 'edit' ? 'hosting.site_edit_title' : 'hosting.site_create_title')}
      size="lg"
      data-testid="hosting-site-modal"
    >
      {target ? (
        <SiteForm
          key={target.kind === 'edit' ? target.site.id : 'new'}
          target={target}
          serviceId={serviceId}
          domain={domain}
          onClose={onClose}
        />
      ) : null}
    </AppModal>
  );
}
