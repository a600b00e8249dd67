import { Button, Checkbox, Group, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { SiteCertificate } from '@panel247/contract/certificates';
import type { Subdomain } from '@panel247/contract/hosting';
import { useState } from 'react';
import { AppModal } from '../../../components/app-modal';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { FormButtons } from '../../../components/form-buttons';
import { blurCheck } from '../../../lib/blur-check';
import { handleFormError } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useRightGuard } from '../../../lib/use-right-guard';
import { useTranslation } from '../../../lib/use-translation';
import { useCreateSubdomain } from '../api/create-subdomain';
import { useSaveSubdomain } from '../api/save-subdomain';
import { useCertificateAuto, useCertificateManual, useSiteCertificate } from '../api/site-certificate';
import { siteHost } from '../lib/hosting-rows';
import {
  type SiteFormValues,
  siteValues,
  toCreatePayload,
  toSavePayload,
  validateSite,
  wantsOrder,
  wildcardOf,
} from '../lib/site-form';
import { CertificateProgress } from './certificate-status';

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

/** An order placed from the dialog: its steps as they come, and a button to close. */
function OrderFollow({ serviceId, siteId, onClose }: { serviceId: number; siteId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const certificate = useSiteCertificate(serviceId, siteId);
  return (
    <Stack gap="md" data-testid="hosting-acme-follow">
      {certificate.data ? (
        <CertificateProgress certificate={certificate.data} />
      ) : certificate.isError ? (
        <Text size="sm" c="red" role="alert">
          {t('hosting.acme_load_error')}
        </Text>
      ) : (
        <DelayedSpinner />
      )}
      <Group justify="flex-end">
        <Button onClick={onClose} data-autofocus data-testid="hosting-acme-close">
          {t('main.close')}
        </Button>
      </Group>
    </Stack>
  );
}

function SiteForm({
  target,
  certificate,
  serviceId,
  domain,
  onClose,
}: {
  target: SiteTarget;
  /** The site's automatic certificate (null: none, or a new site). */
  certificate: SiteCertificate | null;
  serviceId: number;
  domain: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // A new site with automatic SSL is created first; should the order then be refused, the dialog
  // goes on editing the site it made (its errors under their fields).
  const [created, setCreated] = useState<Subdomain | null>(null);
  const [ordered, setOrdered] = useState<number | null>(null);
  const site = target.kind === 'edit' ? target.site : created;
  // The subdomain cannot change once given: by the site, or by whoever opened the dialog.
  const locked = site !== null || Boolean(target.kind === 'new' && target.subDomain);
  const create = useCreateSubdomain(serviceId);
  const save = useSaveSubdomain(serviceId);
  const auto = useCertificateAuto(serviceId);
  const manual = useCertificateManual(serviceId);
  const form = useForm<SiteFormValues>({
    mode: 'controlled',
    initialValues: siteValues(site, target.kind === 'new' ? (target.subDomain ?? '') : '', certificate),
    validate: (values) =>
      Object.fromEntries(Object.entries(validateSite(values, site)).map(([field, key]) => [field, t(key)])),
  });
  const values = form.getValues();
  const keyInstalled = site?.ssl.info?.keyInstalled ?? false;
  const suffix = `.${domain}`;
  const host = site ? siteHost(site.subdominio, site.referencePunycode) : `${values.subDomain.trim() || '…'}${suffix}`;
  const submit = form.onSubmit(async (submitted) => {
    try {
      let current = site;
      let info: readonly string[] = [];
      if (!current) {
        const answer = await create.mutateAsync(toCreatePayload(submitted));
        current = answer.subdomain;
        info = answer.info;
        setCreated(current);
      } else {
        // leaving automatic: the certificate is the customer's again before the site's SSL changes
        if (certificate && submitted.sslMode !== 'auto') info = (await manual.mutateAsync(current.id)).info;
        const folderChanged =
          toSavePayload(submitted, current).folder !== toSavePayload(siteValues(current), current).folder;
        if (submitted.sslMode !== 'auto' || folderChanged)
          info = (await save.mutateAsync({ id: current.id, payload: toSavePayload(submitted, current) })).info;
      }
      if (wantsOrder(submitted, site ? certificate : null)) {
        const answer = await auto.mutateAsync({
          siteId: current.id,
          request: { challenge: submitted.challenge, wildcard: wildcardOf(submitted) },
        });
        notifySuccess(answer.info);
        setOrdered(current.id);
        return;
      }
      notifySuccess(info);
      onClose();
    } catch (error) {
      // What was typed stays (the key too); the server's errors land under their fields.
      handleFormError(form, error);
    }
  });
  if (ordered !== null) return <OrderFollow serviceId={serviceId} siteId={ordered} onClose={onClose} />;
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
        <Radio.Group
          {...form.getInputProps('sslMode')}
          label={t('hosting.ssl_switch')}
          description={t('hosting.ssl_mode_hint')}
          data-testid="hosting-site-ssl-mode"
        >
          <Group gap="md" mt="xs" wrap="wrap">
            <Radio value="off" label={t('hosting.ssl_mode_off')} data-testid="hosting-site-ssl-off" />
            <Radio value="manual" label={t('hosting.ssl_mode_manual')} data-testid="hosting-site-ssl-manual" />
            <Radio value="auto" label={t('hosting.ssl_mode_auto')} data-testid="hosting-site-ssl-auto" />
          </Group>
        </Radio.Group>
        {values.sslMode === 'auto' ? (
          <Stack gap="sm" data-testid="hosting-site-acme">
            <Radio.Group
              {...form.getInputProps('challenge')}
              label={t('hosting.acme_challenge')}
              description={t('hosting.acme_challenge_hint')}
              data-testid="hosting-site-challenge"
            >
              <Stack gap="xs" mt="xs">
                <Radio
                  value="http-01"
                  label={t('hosting.acme_challenge_http')}
                  data-testid="hosting-site-challenge-http"
                />
                <Radio
                  value="dns-01"
                  label={t('hosting.acme_challenge_dns')}
                  data-testid="hosting-site-challenge-dns"
                />
              </Stack>
            </Radio.Group>
            <Checkbox
              {...form.getInputProps('wildcard', { type: 'checkbox' })}
              checked={wildcardOf(values)}
              disabled={values.challenge !== 'dns-01'}
              label={t('hosting.acme_wildcard', { host })}
              description={t('hosting.acme_wildcard_hint')}
              data-testid="hosting-site-wildcard"
            />
            {certificate ? <CertificateProgress certificate={certificate} /> : null}
          </Stack>
        ) : null}
        {values.sslMode === 'manual' ? (
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
          submitting={create.isPending || save.isPending || auto.isPending || manual.isPending}
          onCancel={onClose}
          submitTestId="hosting-site-submit"
          submitLabel={site ? undefined : t('hosting.site_create')}
        />
      </Stack>
    </form>
  );
}

/** An existing site's dialog waits for its automatic certificate (usually already read by its row). */
function EditSite({
  site,
  serviceId,
  domain,
  onClose,
}: {
  site: Subdomain;
  serviceId: number;
  domain: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const certificate = useSiteCertificate(serviceId, site.id);
  if (certificate.isError)
    return (
      <Text size="sm" c="red" role="alert" data-testid="hosting-site-acme-load-error">
        {t('hosting.acme_load_error')}
      </Text>
    );
  if (certificate.data === undefined) return <DelayedSpinner />;
  return (
    <SiteForm
      target={{ kind: 'edit', site }}
      certificate={certificate.data}
      serviceId={serviceId}
      domain={domain}
      onClose={onClose}
    />
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
      {target?.kind === 'edit' ? (
        <EditSite key={target.site.id} site={target.site} serviceId={serviceId} domain={domain} onClose={onClose} />
      ) : target ? (
        <SiteForm
          key="new"
          target={target}
          certificate={null}
          serviceId={serviceId}
          domain={domain}
          onClose={onClose}
        />
      ) : null}
    </AppModal>
  );
}
