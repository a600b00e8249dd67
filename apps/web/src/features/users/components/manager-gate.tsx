import type { ReactNode } from 'react';
import { usePermissionList } from '../../../api/get-permission-list';
import { DelayedSpinner } from '../../../components/delayed-spinner';
import { NotFoundView } from '../../../components/not-found-view';

/**
 * The users' pages are for those who hold the account's right to manage users; anyone else (or
 * someone who loses the right while here: the permission list follows the realtime socket) gets
 * the not-found view, as the side menu no longer offers them.
 */
export function ManagerGate({ children }: { children: ReactNode }) {
  const list = usePermissionList();
  if (list.isPending) return <DelayedSpinner />;
  if (!list.data?.manageUsers) return <NotFoundView />;
  return children;
}
