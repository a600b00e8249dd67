import { SimpleGrid, Stack, Title } from '@mantine/core';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { NotFoundView } from '../../../components/not-found-view';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDomain } from '../api/get-domain';
import { ActionsCard } from './actions-card';
import { ContactsCard } from './contacts-card';
import { DnsCard } from './dns-card';
import { TransferOutNotice } from './transfer-out-notice';

/** The domain view: title is the item reference; three cards (DNS, actions, contacts). */
export function DomainView({ id, set }: { id: number; set: PermissionSetData }) {
  usePageTitle(set.reference);
  const query = useDomain(id);
  const title = (
    <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
      {set.reference}
    </Title>
  );
  if (query.isPending) {
    return (
      <Stack gap="md" data-testid="domain-view" data-loading="true">
        {title}
        <DelayedSpinner />
      </Stack>
    );
  }
  // a failed load of the main item shows the not-found page (spec section 8)
  if (query.isError) return <NotFoundView />;
  const data = query.data;
  return (
    <Stack gap="md" data-testid="domain-view">
      {title}
      {data.domain.transferOut && <TransferOutNotice transfer={data.domain.transferOut} />}
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
        <DnsCard id={id} domain={data.domain} permissions={set.permissions} />
        <ActionsCard id={id} domain={data.domain} permissions={set.permissions} />
        <ContactsCard id={id} data={data} permissions={set.permissions} />
      </SimpleGrid>
    </Stack>
  );
}
