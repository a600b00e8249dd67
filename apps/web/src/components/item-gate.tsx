import { isVisible, type PermissionKey } from '@panel247/contract/constants';
import type { PermissionSetData } from '@panel247/contract/permissions';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { usePermissionSet } from '../api/get-permission-set';
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
}: {
  requires: PermissionKey[];
  flag?: 'hasDomain' | 'hasService' | 'hasMail';
  children: (set: PermissionSetData) => ReactNode;
}) {
  const id = useItemId();
  const query = usePermissionSet(id);
  if (id === null) return <NotFoundView />;
  if (query.isPending) return <DelayedSpinner />;
  if (query.isError || !query.data) return <NotFoundView />;
  const set = query.data;
  if (flag && !set[flag]) return <NotFoundView />;
  if (requires.length > 0 && !requires.some((key) => isVisible(set.permissions[key]))) return <NotFoundView />;
  return children(set);
}
