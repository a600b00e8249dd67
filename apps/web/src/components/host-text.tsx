import { Text, type TextProps } from '@mantine/core';
import { WrapPoints } from './wrap-points';

/** The text cut after each dot, `@` and `/`: the only places a host name or an address may wrap. */
export function hostParts(value: string): string[] {
  return value.split(/(?<=[.@/])/);
}

/**
 * A host name, mail address or folder that wraps only after a dot, `@` or `/` (a `<wbr>` there),
 * never inside a label: "imap.demo.t/est" reads as a different host. A label longer than the line
 * stays whole.
 */
export function HostText({ value, testId, ...props }: TextProps & { value: string; testId?: string }) {
  return (
    <Text size="sm" {...props} data-testid={testId} data-host style={{ overflowWrap: 'normal', wordBreak: 'normal' }}>
      <WrapPoints parts={hostParts(value)} />
    </Text>
  );
}
