import { Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { ListFilter } from './list-page';
import { ListPagination } from './list-pagination';
import { ListSkeleton } from './list-skeleton';

/**
 * The body of a list card, the same in every list (DNS, mail, FTP, databases, sites,
 * redirections): the filters, the skeleton while the first load runs (else the table), then the
 * pagination. Test ids: `{testId}-filter`, `{testId}-skeleton`, `{testId}-pagination`.
 */
export function ListBody({
  testId,
  filter,
  selects,
  pagedOnServer = false,
  loading,
  skeleton,
  pagination,
  children,
}: {
  testId: string;
  filter: { label: string; placeholder: string; value: string; onChange: (value: string) => void };
  /** Choice filters placed before the text filter (the record or account type). */
  selects?: ReactNode;
  /**
   * Paged on the client, a new filter text goes back to page 1 at once. Paged on the server (DNS),
   * the view starts over itself once the typed text settles, so no page is asked for in between.
   */
  pagedOnServer?: boolean;
  loading: boolean;
  skeleton?: { rows: number; height: number };
  pagination: { page: number; pageSize: number; total: number; onChange: (page: number) => void };
  /** The table. */
  children: ReactNode;
}) {
  const text = (
    <ListFilter
      label={filter.label}
      placeholder={filter.placeholder}
      value={filter.value}
      onChange={(value) => {
        filter.onChange(value);
        if (!pagedOnServer) pagination.onChange(1);
      }}
      testId={`${testId}-filter`}
    />
  );
  return (
    <>
      {selects ? (
        <Group gap="sm" align="flex-end" wrap="wrap">
          {selects}
          {text}
        </Group>
      ) : (
        text
      )}
      {loading ? <ListSkeleton {...skeleton} testId={`${testId}-skeleton`} /> : children}
      <ListPagination {...pagination} testId={`${testId}-pagination`} />
    </>
  );
}
