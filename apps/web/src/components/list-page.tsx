import { Card, Group, Stack, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The frame of a service's list page (DNS, mail, FTP, databases): the service's name as the page
 * heading, then the cards.
 */
export function ListPage({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="md" data-testid={testId}>
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/**
 * The card that holds a list: its heading (and a line under it, such as usage), the buttons on the
 * right, then the filters, the table and the pagination as children.
 */
export function ListCard({
  title,
  subtitle,
  actions,
  children,
}: {
  title: string;
  /** A line under the heading; `null` keeps its place empty. */
  subtitle?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const heading = (
    <Title order={2} size="h4">
      {title}
    </Title>
  );
  return (
    <Card withBorder padding="md">
      <Stack gap="md">
        <Group justify="space-between" align="center" wrap="wrap">
          {subtitle === undefined ? (
            heading
          ) : (
            <Stack gap={2}>
              {heading}
              {subtitle}
            </Stack>
          )}
          {actions}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

/** The text filter of a list: a search box of a fixed width on wider screens. */
export function ListFilter({
  label,
  placeholder,
  value,
  onChange,
  testId,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      data-testid={testId}
      maxLength={200}
      w={{ base: '100%', xs: 320 }}
    />
  );
}
