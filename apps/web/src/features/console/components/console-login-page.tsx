import { Box, Card, Center, Group, Stack, Text, Title } from '@mantine/core';
import { Navigate } from 'react-router';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { LanguageSelect } from '../../../components/language-select';
import { useTranslation } from '../../../lib/use-translation';
import { useStaffInfo } from '../api/get-staff-info';
import { consolePaths } from '../lib/console-paths';
import { useConsoleTitle } from '../lib/use-console-title';
import { ConsoleLoginForm } from './console-login-form';

/**
 * The console's sign-in page (`/console/login/`): no brand's logo or name, the switchers on top,
 * the form in a card as narrow as a phone. A signed-in staff user goes on to the services.
 */
export function ConsoleLoginPage() {
  const { t } = useTranslation();
  useConsoleTitle(t('console.login.page_title'));
  const info = useStaffInfo();
  if (info.data) return <Navigate to={consolePaths.services} replace />;
  return (
    <Box
      mih="100dvh"
      style={{ display: 'flex', flexDirection: 'column' }}
      bg="light-dark(var(--mantine-color-gray-1), var(--mantine-color-dark-8))"
    >
      <Group component="header" justify="flex-end" p="md" gap="sm">
        <LanguageSelect compact />
      </Group>
      <Center component="main" style={{ flex: 1 }} px="md" pb="xl">
        <Stack w="100%" maw={420} gap="lg">
          <Text ta="center" fw={700} fz="xl">
            {t('console.title')}
          </Text>
          <Card
            withBorder
            shadow="sm"
            padding="xl"
            radius="md"
            component="section"
            aria-labelledby="console-login-title"
          >
            <Stack gap="md">
              <Title order={1} size="h3" id="console-login-title">
                {t('console.login.title')}
              </Title>
              {info.isPending ? <DelayedSpinner /> : <ConsoleLoginForm />}
            </Stack>
          </Card>
        </Stack>
      </Center>
    </Box>
  );
}
