import { Radio, Stack, Text } from '@mantine/core';
import type { Subdomain } from '@panel247/contract/hosting';
import { ListSkeleton } from '../../../components/list-skeleton';
import { folderLabel } from '../../../lib/service-folder';
import { useTranslation } from '../../../lib/use-translation';
import { siteHost } from '../lib/hosting-rows';

/** Step 0: the site the application goes into (host and folder), as a radio group. */
export function InstallerSiteStep({
  sites,
  pending,
  failed,
  value,
  error,
  onChange,
}: {
  sites: Subdomain[];
  pending: boolean;
  failed: boolean;
  value: number | null;
  error?: string;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation();
  if (pending) return <ListSkeleton rows={2} testId="installer-site-skeleton" />;
  if (failed || sites.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="installer-site-empty">
        {failed ? t('hosting.load_error') : t('hosting.sites_empty')}
      </Text>
    );
  }
  return (
    <Radio.Group
      label={t('installer.site_label')}
      description={t('installer.site_hint')}
      value={value === null ? null : String(value)}
      onChange={(next) => onChange(Number(next))}
      error={error}
      required
      data-testid="installer-sites"
    >
      <Stack gap="xs" mt="xs">
        {sites.map((site, index) => (
          <Radio
            key={site.id}
            // the chosen site, else the first, takes the focus when the step shows
            data-autofocus={(value === null ? index === 0 : site.id === value) || undefined}
            value={String(site.id)}
            label={siteHost(site.subdominio, site.referencePunycode)}
            description={t('installer.site_folder', { folder: folderLabel(site.directorio) })}
            data-testid="installer-site"
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
