import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconUser } from '@tabler/icons-react';

/**
 * The header's menu button of who is signed in (an avatar, the name from the sm breakpoint, a
 * chevron): the customers' user menu and the console's staff menu open from it.
 */
export function UserMenuButton({ name, label, testId }: { name: string; label: string; testId: string }) {
  return (
    <Menu.Target>
      <UnstyledButton aria-label={label} data-testid={testId} p={4}>
        <Group gap={6} wrap="nowrap">
          <Avatar size="sm" radius="xl" aria-hidden>
            <IconUser size={16} />
          </Avatar>
          <Text size="sm" fw={500} visibleFrom="sm">
            {name}
          </Text>
          <IconChevronDown size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Menu.Target>
  );
}
