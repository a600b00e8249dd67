import { ActionIcon, Group } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import type { ReactNode } from 'react';
import { HoverTooltip } from './hover-tooltip';

/** One icon button of a table row; the label names the row, so it is also the accessible name. */
export interface RowAction {
  testId: string;
  label: string;
  icon: ReactNode;
  color?: string;
  /** The call this button started is still running: it spins. */
  loading?: boolean;
  /**
   * The button may not be used now (a task it would start is already running): it looks disabled
   * but keeps the focus a disabled button would drop to the page.
   */
  disabled?: boolean;
  onClick?: () => void;
  /** A link the browser downloads instead of a button (a file of the service). */
  download?: string;
}

/**
 * The icon buttons at the end of a list row (DNS records, mail, FTP accounts, databases), each
 * with a tooltip on hover (mounted when first hovered: see HoverTooltip). Entries that are `false` or `null` are the actions the rights or the row do not
 * allow: they are left out.
 */
export function RowActions({ actions }: { actions: (RowAction | false | null)[] }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {actions.map((action) =>
        action ? (
          <HoverTooltip key={action.testId} label={action.label} withArrow>
            {action.download ? (
              <ActionIcon
                component="a"
                href={action.download}
                download
                variant="subtle"
                color={action.color}
                aria-label={action.label}
                data-testid={action.testId}
              >
                {action.icon}
              </ActionIcon>
            ) : (
              <ActionIcon
                variant="subtle"
                color={action.color}
                aria-label={action.label}
                data-testid={action.testId}
                loading={action.loading}
                data-disabled={action.disabled}
                aria-disabled={action.disabled}
                onClick={action.disabled ? undefined : action.onClick}
              >
                {action.icon}
              </ActionIcon>
            )}
          </HoverTooltip>
        ) : null,
      )}
    </Group>
  );
}

/** The right-aligned "actions" column whose cells are the row's {@link RowActions}. */
export function rowActionsColumn<T>(title: string, actionsOf: (row: T) => (RowAction | false | null)[]) {
  return {
    accessor: 'actions',
    title,
    textAlign: 'right',
    render: (row) => <RowActions actions={actionsOf(row)} />,
  } satisfies DataTableColumn<T>;
}
