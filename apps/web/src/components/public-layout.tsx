import { Box, Center, Group, Image, Stack, Text } from '@mantine/core';
import { type ReactNode, useLayoutEffect } from 'react';
import { useApp } from '../lib/app-context';
import { removeBootShell } from '../lib/boot-shell';
import { LanguageSelect } from './language-select';
import { ThemeModeControl } from './theme-mode-control';

/** The login page's frame: switchers on top, logo, content card, footer with the company. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const { config, logoUrl } = useApp();
  // The server's HTML frame of this page gives way to it (see lib/boot-shell).
  useLayoutEffect(removeBootShell, []);
  return (
    <Box
      mih="100dvh"
      style={{ display: 'flex', flexDirection: 'column', background: 'var(--mantine-color-body)' }}
      bg="light-dark(var(--mantine-color-gray-1), var(--mantine-color-dark-8))"
    >
      <Group component="header" justify="flex-end" p="md" gap="sm">
        <ThemeModeControl />
        <LanguageSelect compact />
      </Group>
      <Center component="main" style={{ flex: 1 }} px="md" pb="xl">
        <Stack w="100%" maw={420} gap="lg" align="stretch">
          <Center>
            <Image src={logoUrl} alt={config.company} h={56} w="auto" fit="contain" />
          </Center>
          {children}
        </Stack>
      </Center>
      <Box component="footer" py="md">
        <Text ta="center" size="sm" c="dimmed">
          © {new Date().getFullYear()} {config.company}
        </Text>
      </Box>
    </Box>
  );
}
