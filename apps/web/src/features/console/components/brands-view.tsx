import { Anchor, Badge } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { Link } from 'react-router';
import { ListCard, ListPage } from '../../../components/list-page';
import { ListSkeleton } from '../../../components/list-skeleton';
import { ListTable } from '../../../components/list-table';
import { useErrorToast } from '../../../lib/use-error-toast';
import { useTranslation } from '../../../lib/use-translation';
import { type ConsoleBrand, useBrands } from '../api/list-brands';
import { consolePaths } from '../lib/console-paths';
import { useConsoleTitle } from '../lib/use-console-title';

/** The provider's brands; each one's name opens its editor. */
export function BrandsView() {
  const { t } = useTranslation();
  useConsoleTitle(t('console.nav.brands'));
  const brands = useBrands(true);
  useErrorToast(brands.error);

  const columns: DataTableColumn<ConsoleBrand>[] = [
    {
      accessor: 'name',
      title: t('console.brands.name'),
      render: (brand) => (
        <Anchor
          component={Link}
          to={consolePaths.brand(brand.slug)}
          size="sm"
          fw={500}
          aria-label={t('console.brands.edit_of', { name: brand.name })}
          style={{ overflowWrap: 'anywhere' }}
          data-testid="brand-edit"
        >
          {brand.name}
        </Anchor>
      ),
    },
    { accessor: 'slug', title: t('console.brands.slug') },
    {
      accessor: 'isDefault',
      title: t('console.brands.default'),
      render: (brand) =>
        brand.isDefault ? (
          <Badge variant="light" data-testid="brand-default">
            {t('console.brands.default')}
          </Badge>
        ) : null,
    },
  ];

  return (
    <ListPage testId="console-brands-view" title={t('console.brands.title')}>
      <ListCard title={t('console.brands.list_title')}>
        {brands.isPending ? (
          <ListSkeleton rows={2} height={32} testId="console-brands-skeleton" />
        ) : (
          <ListTable
            testId="console-brands"
            busy={brands.isFetching}
            records={brands.data ?? []}
            columns={columns}
            emptyText={brands.isError ? t('console.brands.load_error') : t('console.brands.empty')}
            idAccessor="slug"
            rowAttributes={(brand) => ({ 'data-slug': brand.slug, 'data-default': brand.isDefault ? '1' : '0' })}
          />
        )}
      </ListCard>
    </ListPage>
  );
}
