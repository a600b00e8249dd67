import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDeviceMobileDown } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { notifyError } from '../../../lib/notify';
import { useTranslation } from '../../../lib/use-translation';
import { useDownloadMobileconfig } from '../api/download-mobileconfig';
import { useMailPage } from '../api/use-mail-page';

/** Typing pauses this long before the mailboxes are searched again. */
const SEARCH_DEBOUNCE_MS = 300;

interface Option {
  value: string;
  label: string;
}

/**
 * The .mobileconfig of one mailbox, for iPhone, iPad and Mac: the connection data set up in the
 * device's Mail, the password asked there. A service may hold thousands of mailboxes, so the
 * choice searches them on the server, a page at a time.
 */
export function AppleProfileSection({ serviceId, domain }: { serviceId: number; domain: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [filter] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [chosen, setChosen] = useState<Option | null>(null);
  const accounts = useMailPage(serviceId, { page: 1, type: 'account', filter });
  const download = useDownloadMobileconfig(serviceId);

  const options = useMemo(() => {
    const found: Option[] = (accounts.data?.mail ?? []).flatMap((row) =>
      row.type === 'account' ? [{ value: String(row.correo.id), label: `${row.correo.user}@${domain}` }] : [],
    );
    // the chosen mailbox stays a choice while another search runs
    return chosen && !found.some((o) => o.value === chosen.value) ? [chosen, ...found] : found;
  }, [accounts.data, domain, chosen]);

  const save = () => {
    if (!chosen) return;
    download.mutate(Number(chosen.value), { onError: (error) => notifyError(error) });
  };

  return (
    <Stack gap="xs" data-testid="mail-mobileconfig">
      <Text fw={600} size="sm" component="h3" m={0}>
        {t('mail.apple_title')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('mail.apple_hint')}
      </Text>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          label={t('mail.apple_mailbox')}
          placeholder={t('mail.apple_placeholder')}
          searchable
          data={options}
          value={chosen?.value ?? null}
          onChange={(value) => setChosen(options.find((o) => o.value === value) ?? null)}
          searchValue={search}
          onSearchChange={setSearch}
          nothingFoundMessage={accounts.isFetching ? t('main.loading') : t('mail.apple_none')}
          style={{ flex: '1 1 16rem' }}
          data-testid="mail-mobileconfig-mailbox"
        />
        <Button
          variant="default"
          leftSection={<IconDeviceMobileDown size={16} aria-hidden />}
          onClick={save}
          disabled={!chosen}
          loading={download.isPending}
          data-testid="mail-mobileconfig-download"
        >
          {t('mail.apple_download')}
        </Button>
      </Group>
    </Stack>
  );
}
