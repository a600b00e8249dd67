import { DataTable, type DataTableColumn } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { usePhone } from '../lib/use-phone';
import { StackedList } from './stacked-list';

/**
 * The bordered table of a list page (DNS records, mail, FTP accounts, databases): the same frame,
 * a minimum height while empty so the "no rows" text has room, `aria-busy` while it refetches,
 * and row attributes the tests and styles find the rows by. On a phone the same columns become
 * stacked cards ({@link StackedList}).
 */
export function ListTable<T>({
  testId,
  busy,
  records,
  columns,
  emptyText,
  idAccessor,
  verticalAlign = 'center',
  rowAttributes,
}: {
  testId: string;
  busy: boolean;
  records: T[];
  columns: DataTableColumn<T>[];
  emptyText: string;
  /** The record field that keys the rows: `id` unless said. */
  idAccessor?: keyof T & string;
  verticalAlign?: 'top' | 'center';
  rowAttributes: (row: T) => Record<string, string>;
}) {
  const phone = usePhone();
  const key = idAccessor ?? 'id';
  if (phone) {
    return (
      <StackedList<T>
        testId={testId}
        busy={busy}
        records={records}
        columns={columns}
        emptyText={emptyText}
        idOf={(record) => String(record[key as keyof T])}
        rowAttributes={rowAttributes}
      />
    );
  }
  return (
    <DataTable<T>
      data-testid={testId}
      aria-busy={busy}
      withTableBorder
      borderRadius="sm"
      verticalAlign={verticalAlign}
      minHeight={records.length === 0 ? 180 : undefined}
      idAccessor={key}
      records={records}
      columns={columns}
      noRecordsText={emptyText}
      customRowAttributes={rowAttributes}
    />
  );
}
