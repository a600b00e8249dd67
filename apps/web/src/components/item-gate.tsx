import type { PermissionSetData } from '@panel247/contract/permissions';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { usePermissionSet } from '../api/get-permission-set';
import { gateOpens, type ItemGateRule } from '../lib/item-gate-rule';
import { parseId } from '../lib/resource-paths';
import { DelayedSpinner } from './delayed-spinner';
import { NotFoundView } from './not-found-view';

export function useItemId(): number | null {
  return parseId(useParams().id);
}

/**
 * Loads the item by the route's id. A load failure, or no visible permission among `requires`,
 * shows the not-found view (spec section 2).
 */
export function ItemGate({
  requires,
  flag,
  children,
}: ItemGateRule & {
  children: (set: PermissionSetData) => ReactNode;
}) {
  const id = useItemId();
  const query = usePermissionSet(id);
  if (id === null) return <NotFoundView />;
  if (query.isPending) return <DelayedSpinner />;
  if (query.isError || !query.data) return <NotFoundView />;
  if (!gateOpens(query.data, { requires, flag })) return <NotFoundView />;
  return children(query.data);
}
