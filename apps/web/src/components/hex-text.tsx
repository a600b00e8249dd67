import { Code, Group } from '@mantine/core';
import { CopyButton } from './copy-button';
import { WrapPoints } from './wrap-points';

const GROUP = 8;

/** A long hex string in groups of eight, the only places it may wrap. */
export function hexGroups(value: string): string[] {
  return value.match(new RegExp(`.{1,${GROUP}}`, 'g')) ?? [];
}

/**
 * The groups of a hex string with a line-break opportunity (`<wbr>`) between them, for a parent
 * that does not break words: every line holds whole groups, and no character is left alone on the
 * last one.
 */
export function HexGroups({ value }: { value: string }) {
  return (
    <span style={{ whiteSpace: 'normal', overflowWrap: 'normal', wordBreak: 'normal' }}>
      <WrapPoints parts={hexGroups(value)} />
    </span>
  );
}

/** A digest or key in hex, wrapping between groups of eight, with a button that copies it whole. */
export function HexText({ value, copyLabel, testId }: { value: string; copyLabel: string; testId?: string }) {
  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      <Code data-testid={testId}>
        <HexGroups value={value} />
      </Code>
      <CopyButton value={value} label={copyLabel} />
    </Group>
  );
}
