import { Badge, NativeSelect, Radio, ScrollArea, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { HostingApplication } from '@panel247/contract/installer';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ListSkeleton } from '../../../components/list-skeleton';
import { useTranslation } from '../../../lib/use-translation';
import { applicationLogoUrl } from '../api/list-applications';
import {
  CATALOGUE_FILTER_DEBOUNCE_MS,
  catalogueCategories,
  filterApplications,
  formatAppSize,
  sortApplications,
} from '../lib/installer-rules';

/**
 * Step 1: the catalogue. Featured applications first (and marked); a text filter applied 300 ms
 * after the last key and a category filter; one radio per application.
 */
export function InstallerAppStep({
  apps,
  pending,
  failed,
  value,
  error,
  onChange,
}: {
  apps: HostingApplication[];
  pending: boolean;
  failed: boolean;
  value: number | null;
  error?: string;
  onChange: (app: HostingApplication) => void;
}) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState('');
  const [category, setCategory] = useState('');
  const [filter] = useDebouncedValue(text, CATALOGUE_FILTER_DEBOUNCE_MS);
  const sorted = useMemo(() => sortApplications(apps), [apps]);
  const shown = useMemo(() => filterApplications(sorted, filter, category), [sorted, filter, category]);
  const categories = useMemo(
    () =>
      catalogueCategories(apps)
        .map((value) => ({ value, label: t(`installer.categories.${value}`) }))
        .sort((a, b) => a.label.localeCompare(b.label, i18n.language)),
    [apps, t, i18n.language],
  );
  const filtered = text.trim() !== '' || category !== '';

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('installer.app_filter')}
          placeholder={t('installer.app_filter_placeholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          data-testid="installer-app-filter"
        />
        <NativeSelect
          label={t('installer.app_category')}
          value={category}
          onChange={(event) => setCategory(event.currentTarget.value)}
          data={[{ value: '', label: t('installer.all_categories') }, ...categories]}
          data-testid="installer-app-category"
        />
      </SimpleGrid>
      {pending ? (
        <ListSkeleton rows={3} height={64} testId="installer-app-skeleton" />
      ) : shown.length === 0 ? (
        <Text size="sm" c="dimmed" py="md" ta="center" data-testid="installer-app-empty">
          {failed
            ? t('installer.apps_error')
            : filtered && apps.length > 0
              ? t('installer.apps_no_results')
              : t('installer.apps_empty')}
        </Text>
      ) : (
        <Radio.Group
          label={t('installer.app_label')}
          value={value === null ? null : String(value)}
          onChange={(next) => {
            const app = apps.find((item) => String(item.id) === next);
            if (app) onChange(app);
          }}
          error={error}
          required
          data-testid="installer-apps"
        >
          <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars mt="xs">
            <Stack gap="xs">
              {shown.map((app) => (
                <AppChoice key={app.id} app={app} checked={app.id === value} language={i18n.language} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Radio.Group>
      )}
    </Stack>
  );
}

function AppChoice({ app, checked, language }: { app: HostingApplication; checked: boolean; language: string }) {
  const { t } = useTranslation();
  const meta = t('installer.app_meta', {
    category: t(`installer.categories.${app.category}`),
    size: formatAppSize(app.size, language),
    type: app.type === 'php' ? 'PHP' : 'JavaScript',
  });
  // Only phrasing content inside the radio's <label>: spans, no paragraphs or divs.
  return (
    <Radio
      value={String(app.id)}
      data-testid="installer-app"
      data-name={app.softName}
      styles={{
        root: {
          border: `1px solid ${checked ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
          borderRadius: 'var(--mantine-radius-md)',
          padding: 'var(--mantine-spacing-sm)',
        },
        labelWrapper: { flex: 1, minWidth: 0 },
      }}
      label={
        <span style={{ display: 'flex', gap: 'var(--mantine-spacing-sm)', alignItems: 'center' }}>
          {/* The name beside it says what it is: the logo is decoration. */}
          <img
            src={applicationLogoUrl(app.id)}
            alt=""
            width={32}
            height={32}
            loading="lazy"
            style={{ flexShrink: 0 }}
          />
          <Text component="span" fw={600} size="sm">
            {app.fullName}
          </Text>
          <Text component="span" size="sm" c="dimmed" data-testid="installer-app-version">
            {app.version}
          </Text>
          {app.featured ? (
            <Badge component="span" size="sm" variant="light" color="yellow" data-testid="installer-app-featured">
              {t('installer.featured')}
            </Badge>
          ) : null}
        </span>
      }
      description={
        <>
          <Text component="span" size="xs" display="block" data-testid="installer-app-meta">
            {meta}
          </Text>
          {app.description ? (
            <Text component="span" size="xs" display="block">
              {app.description}
            </Text>
          ) : null}
        </>
      }
    />
  );
}
