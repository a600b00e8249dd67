import { Progress, Stack, Text } from '@mantine/core';

/**
 * A usage against its limit: the sentence that says it, and a bar that only draws it (yellow from
 * 75 %, red from 90 %).
 */
export function UsageBar({ text, percent, testId }: { text: string; percent: number; testId: string }) {
  return (
    <Stack gap={4} maw={260}>
      <Text size="sm" data-testid={testId}>
        {text}
      </Text>
      <Progress
        value={Math.min(100, percent)}
        size="sm"
        color={percent >= 90 ? 'red' : percent >= 75 ? 'yellow' : undefined}
        // the text above says it; the bar only draws it
        aria-hidden
      />
    </Stack>
  );
}
