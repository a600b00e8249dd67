import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import type { ReactNode } from 'react';
import classes from './stacked-list.module.css';

/**
 * A cell as the table would draw it: the column's render, else the record's field. Plain text gets
 * the table's text size.
 */
function cellOf<T>(column: DataTableColumn<T>, record: T, index: number): ReactNode {
  const content: unknown = column.render
    ? column.render(record, index)
    : (record as Record<string, unknown>)[column.accessor as string];
  if (content === null || content === undefined || content === '') return null;
  if (typeof content === 'string' || typeof content === 'number') return <Text size="sm">{content}</Text>;
  return content as ReactNode;
}

/**
 * A list's rows as stacked cards, for phones: a table's columns do not fit in 390 px, and a table
 * that scrolls sideways hides the value and the actions the user came for. Each card has the first
 * column (the row's identifying value) with the actions beside it, then every other column as a
 * labelled line. It keeps the table's test id, `aria-busy` and row attributes, so a row is found
 * the same way in both layouts.
 */
export function StackedList<T>({
  testId,
  busy,
  records,
  columns,
  emptyText,
  idOf,
  rowAttributes,
}: {
  testId: string;
  busy: boolean;
  records: T[];
  columns: DataTableColumn<T>[];
  emptyText: string;
  idOf: (record: T) => string;
  rowAttributes: (row: T) => Record<string, string>;
}) {
  const shown = columns.filter((column) => !column.hidden);
  const actions = shown.find((column) => column.accessor === 'actions');
  const [first, ...rest] = shown.filter((column) => column !== actions);
  return (
    <Box data-testid={testId} data-layout="stacked" aria-busy={busy}>
      {records.length === 0 ? (
        <Paper withBorder radius="sm" p="xl">
          <Text ta="center" c="dimmed" size="sm">
            {emptyText}
          </Text>
        </Paper>
      ) : (
        <Stack gap="xs" component="ul" className={classes.list}>
          {records.map((record, index) => (
            <Paper key={idOf(record)} withBorder radius="sm" p="sm" component="li" {...rowAttributes(record)}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Box className={classes.main}>{first ? cellOf(first, record, index) : null}</Box>
                {actions ? <Box className={classes.actions}>{cellOf(actions, record, index)}</Box> : null}
              </Group>
              {rest.length > 0 ? (
                <dl className={classes.fields}>
                  {rest.map((column) => {
                    const cell = cellOf(column, record, index);
                    // an empty cell (a priority an A record has not) is left out, label and all
                    return cell === null ? null : (
                      <div key={String(column.accessor)} className={classes.field}>
                        <Text component="dt" size="xs" c="dimmed" lh="22px">
                          {column.title}
                        </Text>
                        <Box component="dd" className={classes.value}>
                          {cell}
                        </Box>
                      </div>
                    );
                  })}
                </dl>
              ) : null}
            </Paper>
          ))}
        </Stack>
      )}
    </Box>
  );
}
