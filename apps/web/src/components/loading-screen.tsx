import { Center, Loader, Stack, Text } from '@mantine/core';

/** Shown until the configuration is loaded; the label is passed in because texts may not be ready. */
export function LoadingScreen({ label }: { label: string }) {
  return (
    <Center mih="100dvh" role="status" aria-live="polite" data-testid="loading-screen">
      <Stack align="center" gap="sm">
        <Loader />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
