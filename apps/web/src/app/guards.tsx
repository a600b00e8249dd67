import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useApp } from '../lib/app-context';
import { takePostLoginTarget } from '../lib/post-login';
import { paths } from '../lib/resource-paths';

/** Without a session every route but login and not-found goes to the login page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { user } = useApp();
  if (!user) return <Navigate to={paths.login} replace />;
  return children;
}

/** A logged-in user who opens the login page goes to the main dashboard. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { user } = useApp();
  if (user) return <Navigate to={takePostLoginTarget() ?? paths.dashboard} replace />;
  return children;
}
