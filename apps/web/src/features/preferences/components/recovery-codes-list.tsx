import { Alert, Button, Code, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { CopyButton } from '../../../components/copy-button';
import { useTranslation } from '../../../lib/use-translation';

function download(codes: string[], fileName: string) {
  const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Recovery codes, shown once: only their hashes are kept, so the user copies or saves them now. */
export function RecoveryCodesList({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="recovery-codes">
      <Alert color="yellow" variant="light" title={t('two_factor.codes_title')}>
        {t('two_factor.codes_text')}
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" component="ul" style={{ listStyle: 'none', padding: 0 }}>
        {codes.map((code) => (
          <li key={code}>
            <Code fz="md" data-testid="recovery-code">
              {code}
            </Code>
          </li>
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <CopyButton value={codes.join('\n')} label={t('two_factor.codes_copy')} />
        <Button
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => download(codes, 'panel247-recovery-codes.txt')}
        >
          {t('two_factor.codes_download')}
        </Button>
      </Group>
    </Stack>
  );
}
