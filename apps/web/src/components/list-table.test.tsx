import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import type { DataTableColumn } from 'mantine-datatable';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emulateScreen } from '../test/screen-width';
import { ListTable } from './list-table';
import { rowActionsColumn } from './row-actions';

interface Row {
  id: number;
  name: string;
  kind: string;
  note: string;
}

const rows: Row[] = [
  { id: 1, name: 'mail.demo.test', kind: 'A', note: '' },
  { id: 2, name: 'www.demo.test', kind: 'CNAME', note: 'follows the web server' },
];

const onEdit = vi.fn();
const columns: DataTableColumn<Row>[] = [
  { accessor: 'name', title: 'Name' },
  { accessor: 'kind', title: 'Type' },
  { accessor: 'note', title: 'Note' },
  rowActionsColumn<Row>('Actions', (row) => [
    { testId: 'row-edit', label: `Edit ${row.name}`, icon: null, onClick: () => onEdit(row.id) },
  ]),
];

function renderList(records = rows) {
  render(
    <MantineProvider env="test">
      <ListTable
        testId="things"
        busy={false}
        records={records}
        columns={columns}
        emptyText="Nothing here"
        rowAttributes={(row) => ({ 'data-name': row.name })}
      />
    </MantineProvider>,
  );
}

let restoreScreen: () => void = () => {};
afterEach(() => restoreScreen());

describe('list table', () => {
  it('is a table on a wide screen', () => {
    restoreScreen = emulateScreen();
    renderList();
    expect(screen.getByTestId('things').querySelectorAll('tbody tr[data-name]')).toHaveLength(2);
    expect(screen.getByTestId('things').getAttribute('data-layout')).toBeNull();
  });

  it('is a list of cards on a phone: the first column with the actions, the rest labelled, empty cells left out', () => {
    restoreScreen = emulateScreen({ phone: true });
    renderList();
    const list = screen.getByTestId('things');
    expect(list).toHaveAttribute('data-layout', 'stacked');
    expect(list.querySelector('table')).toBeNull();
    const cards = list.querySelectorAll<HTMLElement>('li[data-name]');
    expect(Array.from(cards, (card) => card.dataset.name)).toEqual(['mail.demo.test', 'www.demo.test']);
    const first = within(cards[0] as HTMLElement);
    expect(first.getByText('mail.demo.test')).toBeInTheDocument();
    expect(Array.from((cards[0] as HTMLElement).querySelectorAll('dt'), (dt) => dt.textContent)).toEqual(['Type']);
    expect(first.getByText('A')).toBeInTheDocument();
    const second = within(cards[1] as HTMLElement);
    expect(Array.from((cards[1] as HTMLElement).querySelectorAll('dt'), (dt) => dt.textContent)).toEqual([
      'Type',
      'Note',
    ]);
    second.getByRole('button', { name: 'Edit www.demo.test' }).click();
    expect(onEdit).toHaveBeenCalledWith(2);
  });

  it('says so when there are no rows, on a phone too', () => {
    restoreScreen = emulateScreen({ phone: true });
    renderList([]);
    expect(screen.getByTestId('things')).toHaveTextContent('Nothing here');
  });
});
