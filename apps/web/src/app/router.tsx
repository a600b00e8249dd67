import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode, Suspense } from 'react';
import { Navigate, type RouteObject, useRoutes } from 'react-router';
import { DelayedSpinner } from '../components/delayed-spinner';
import { useApp } from '../lib/app-context';
import { loadAreaTexts } from '../lib/i18n';
import { paths } from '../lib/resource-paths';
import { PublicOnly, RequireSession } from './guards';

// One chunk per route: the login route must stay under its 170 KB gzipped budget.
const LoginRoute = lazy(() => import('../features/auth/routes/login-route'));
// Every screen behind the session renders inside the layout: its chunk brings their texts along.
const AppLayout = lazy(() =>
  Promise.all([import('../features/shell/components/app-layout'), loadAreaTexts()]).then(([layout]) => layout),
);
const DashboardRoute = lazy(() => import('../features/dashboard/routes/dashboard-route'));
const PreferencesRoute = lazy(() => import('../features/preferences/routes/preferences-route'));
const DomainListRoute = lazy(() => import('../features/lists/routes/domain-list-route'));
const ServiceListRoute = lazy(() => import('../features/lists/routes/service-list-route'));
const MailListRoute = lazy(() => import('../features/lists/routes/mail-list-route'));
const LegalRoute = lazy(() => import('../features/legal/routes/legal-route'));
const ContactRoute = lazy(() => import('../features/contact/routes/contact-route'));
const NotFoundRoute = lazy(() => import('../features/not-found/routes/not-found-route'));
const ItemRedirectRoute = lazy(() => import('../features/resource/routes/item-redirect-route'));
const DomainRoute = lazy(() => import('../features/domain/routes/domain-route'));
const MailRoute = lazy(() => import('../features/mail/routes/mail-route'));
const MailSpamRoute = lazy(() => import('../features/mail/routes/mail-spam-route'));
const ServiceOverviewRoute = lazy(() => import('../features/hosting/routes/service-overview-route'));
const FtpRoute = lazy(() => import('../features/ftp/routes/ftp-route'));
const FilesRoute = lazy(() => import('../features/files/routes/files-route'));
const BackupsRoute = lazy(() => import('../features/backups/routes/backups-route'));
const CronRoute = lazy(() => import('../features/cron/routes/cron-route'));
const StatsRoute = lazy(() => import('../features/stats/routes/stats-route'));
const ServiceSitesRoute = lazy(() => import('../features/hosting/routes/sites-route'));
const DatabasesRoute = lazy(() => import('../features/databases/routes/databases-route'));
const ServiceDnsRoute = lazy(() => import('../features/dns/routes/dns-zone-route'));
const ActivityRoute = lazy(() => import('../features/activity/routes/activity-route'));
const ItemActivityRoute = lazy(() => import('../features/activity/routes/item-activity-route'));
// Through a door module, as the console: the entry chunk does not carry these pages' chunk lists.
const UsersRoute = lazy(() => import('../features/users/routes/users-entry').then((door) => door.loadUsersRoute()));
const UserRoute = lazy(() => import('../features/users/routes/users-entry').then((door) => door.loadUserRoute()));
// Public, and none of the layout: it brings the texts of the areas (its own and the password's)
// with its code, so the login page's start texts do not grow.
const InvitationRoute = lazy(() =>
  Promise.all([import('../features/invitation/routes/invitation-route'), loadAreaTexts()]).then(([route]) => route),
);
// The provider's console: its own chunk, texts and staff session; none of it reaches the login route.
const ConsoleRoute = lazy(() =>
  import('../features/console/routes/console-entry').then((entry) => entry.loadConsole()),
);

function NotFoundSwitch() {
  const { user } = useApp();
  if (!user) return page(NotFoundRoute);
  return (
    <Suspense fallback={<DelayedSpinner />}>
      <AppLayout>{page(NotFoundRoute)}</AppLayout>
    </Suspense>
  );
}

function page(Component: LazyExoticComponent<ComponentType>): ReactNode {
  return (
    <Suspense fallback={<DelayedSpinner />}>
      <Component />
    </Suspense>
  );
}

export const routes: RouteObject[] = [
  { path: '/', element: <Navigate to={paths.dashboard} replace /> },
  {
    path: '/login/',
    element: <PublicOnly>{page(LoginRoute)}</PublicOnly>,
  },
  {
    element: <RequireSession>{page(AppLayout)}</RequireSession>,
    children: [
      {
        path: '/admin/',
        children: [
          { index: true, element: page(DashboardRoute) },
          { path: 'contact/', element: page(ContactRoute) },
          { path: 'preferences/', element: page(PreferencesRoute) },
          { path: 'domain/', element: page(DomainListRoute) },
          { path: 'service/', element: page(ServiceListRoute) },
          { path: 'mail/', element: page(MailListRoute) },
          { path: 'activity/', element: page(ActivityRoute) },
          { path: 'users/', element: page(UsersRoute) },
          { path: 'users/:id/', element: page(UserRoute) },
          { path: ':id/', element: page(ItemRedirectRoute) },
          { path: ':id/domain/', element: page(DomainRoute) },
          { path: ':id/mail/', element: page(MailRoute) },
          { path: ':id/activity/', element: page(ItemActivityRoute) },
          {
            // Each view of a service gates itself on the permissions it needs: a gate here as well
            // would hold the view's chunk back until the item's permissions had loaded.
            path: ':id/service/',
            children: [
              { index: true, element: page(ServiceOverviewRoute) },
              { path: 'ftp/', element: page(FtpRoute) },
              { path: 'files/', element: page(FilesRoute) },
              { path: 'subdomain/', element: page(ServiceSitesRoute) },
              { path: 'ddbb/', element: page(DatabasesRoute) },
              { path: 'dns/', element: page(ServiceDnsRoute) },
              { path: 'backups/', element: page(BackupsRoute) },
              { path: 'cron/', element: page(CronRoute) },
              { path: 'stats/', element: page(StatsRoute) },
              { path: 'mail/spam/', element: page(MailSpamRoute) },
            ],
          },
          { path: '*', element: page(NotFoundRoute) },
        ],
      },
      { path: '/legal/', element: page(LegalRoute) },
      { path: '/contact/', element: page(ContactRoute) },
    ],
  },
  // An invited user sets their password: with or without a session (never sent away from it).
  { path: '/invitation/', element: page(InvitationRoute) },
  { path: '/console/*', element: page(ConsoleRoute) },
  // Logged in: the not-found view inside the layout; logged out: styled like the login page.
  { path: '*', element: <NotFoundSwitch /> },
];

/** Declarative routing (no data router): a smaller bundle, and the app loads its data itself. */
export function AppRoutes() {
  return useRoutes(routes);
}
