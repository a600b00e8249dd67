import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode, Suspense } from 'react';
import { matchRoutes, Navigate, type RouteObject, useRoutes } from 'react-router';
import { DelayedSpinner } from '../components/delayed-spinner';
import { useApp } from '../lib/app-context';
import { loadAreaTexts } from '../lib/i18n';
import { paths } from '../lib/resource-paths';
import { PublicOnly, RequireSession } from './guards';

/** A route's page: the component React loads lazily, and the loader of its code for the boot to call early. */
interface LazyPage {
  Page: LazyExoticComponent<ComponentType>;
  load: () => Promise<unknown>;
}

function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  return { Page: lazy(load), load };
}

/** What a route's handle holds: the loader of the code its address needs, and whether only a session opens it. */
interface RouteCode {
  load: () => Promise<unknown>;
  session?: true;
}

function routePage(lazyRoute: LazyPage): Pick<RouteObject, 'element' | 'handle'> {
  return { element: page(lazyRoute.Page), handle: { load: lazyRoute.load } satisfies RouteCode };
}

// One chunk per route: the login route must stay under its 170 KB gzipped budget.
const LoginRoute = lazyPage(() => import('../features/auth/routes/login-route'));
// Every screen behind the session renders inside the layout: its chunk brings their texts along.
const loadLayoutCode = () => import('../features/shell/components/app-layout');
const AppLayout = lazy(() => Promise.all([loadLayoutCode(), loadAreaTexts()]).then(([layout]) => layout));
const DashboardRoute = lazyPage(() => import('../features/dashboard/routes/dashboard-route'));
const PreferencesRoute = lazyPage(() => import('../features/preferences/routes/preferences-route'));
const DomainListRoute = lazyPage(() => import('../features/lists/routes/domain-list-route'));
const ServiceListRoute = lazyPage(() => import('../features/lists/routes/service-list-route'));
const MailListRoute = lazyPage(() => import('../features/lists/routes/mail-list-route'));
const LegalRoute = lazyPage(() => import('../features/legal/routes/legal-route'));
const ContactRoute = lazyPage(() => import('../features/contact/routes/contact-route'));
const NotFoundRoute = lazyPage(() => import('../features/not-found/routes/not-found-route'));
const ItemRedirectRoute = lazyPage(() => import('../features/resource/routes/item-redirect-route'));
const DomainRoute = lazyPage(() => import('../features/domain/routes/domain-route'));
const MailRoute = lazyPage(() => import('../features/mail/routes/mail-route'));
const MailSpamRoute = lazyPage(() => import('../features/mail/routes/mail-spam-route'));
const ServiceOverviewRoute = lazyPage(() => import('../features/hosting/routes/service-overview-route'));
const FtpRoute = lazyPage(() => import('../features/ftp/routes/ftp-route'));
const FilesRoute = lazyPage(() => import('../features/files/routes/files-route'));
const BackupsRoute = lazyPage(() => import('../features/backups/routes/backups-route'));
const CronRoute = lazyPage(() => import('../features/cron/routes/cron-route'));
const StatsRoute = lazyPage(() => import('../features/stats/routes/stats-route'));
const ServiceSitesRoute = lazyPage(() => import('../features/hosting/routes/sites-route'));
const DatabasesRoute = lazyPage(() => import('../features/databases/routes/databases-route'));
const ServiceDnsRoute = lazyPage(() => import('../features/dns/routes/dns-zone-route'));
const ActivityRoute = lazyPage(() => import('../features/activity/routes/activity-route'));
const ItemActivityRoute = lazyPage(() => import('../features/activity/routes/item-activity-route'));
// Through a door module, as the console: the entry chunk does not carry these pages' chunk lists.
const UsersRoute = lazyPage(() => import('../features/users/routes/users-entry').then((door) => door.loadUsersRoute()));
const UserRoute = lazyPage(() => import('../features/users/routes/users-entry').then((door) => door.loadUserRoute()));
// Public, and none of the layout: it brings the texts of the areas (its own and the password's)
// with its code, so the login page's start texts do not grow.
const InvitationRoute = lazyPage(() =>
  Promise.all([import('../features/invitation/routes/invitation-route'), loadAreaTexts()]).then(([route]) => route),
);
// The provider's console: its own chunk, texts and staff session; none of it reaches the login route.
const ConsoleRoute = lazyPage(() =>
  import('../features/console/routes/console-entry').then((entry) => entry.loadConsole()),
);

function NotFoundSwitch() {
  const { user } = useApp();
  if (!user) return page(NotFoundRoute.Page);
  return (
    <Suspense fallback={<DelayedSpinner />}>
      <AppLayout>{page(NotFoundRoute.Page)}</AppLayout>
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
    element: <PublicOnly>{page(LoginRoute.Page)}</PublicOnly>,
    handle: { load: LoginRoute.load },
  },
  {
    element: <RequireSession>{page(AppLayout)}</RequireSession>,
    handle: { load: loadLayoutCode, session: true } satisfies RouteCode,
    children: [
      {
        path: '/admin/',
        children: [
          { index: true, ...routePage(DashboardRoute) },
          { path: 'contact/', ...routePage(ContactRoute) },
          { path: 'preferences/', ...routePage(PreferencesRoute) },
          { path: 'domain/', ...routePage(DomainListRoute) },
          { path: 'service/', ...routePage(ServiceListRoute) },
          { path: 'mail/', ...routePage(MailListRoute) },
          { path: 'activity/', ...routePage(ActivityRoute) },
          { path: 'users/', ...routePage(UsersRoute) },
          { path: 'users/:id/', ...routePage(UserRoute) },
          { path: ':id/', ...routePage(ItemRedirectRoute) },
          { path: ':id/domain/', ...routePage(DomainRoute) },
          { path: ':id/mail/', ...routePage(MailRoute) },
          { path: ':id/activity/', ...routePage(ItemActivityRoute) },
          {
            // Each view of a service gates itself on the permissions it needs: a gate here as well
            // would hold the view's chunk back until the item's permissions had loaded.
            path: ':id/service/',
            children: [
              { index: true, ...routePage(ServiceOverviewRoute) },
              { path: 'ftp/', ...routePage(FtpRoute) },
              { path: 'files/', ...routePage(FilesRoute) },
              { path: 'subdomain/', ...routePage(ServiceSitesRoute) },
              { path: 'ddbb/', ...routePage(DatabasesRoute) },
              { path: 'dns/', ...routePage(ServiceDnsRoute) },
              { path: 'backups/', ...routePage(BackupsRoute) },
              { path: 'cron/', ...routePage(CronRoute) },
              { path: 'stats/', ...routePage(StatsRoute) },
              { path: 'mail/spam/', ...routePage(MailSpamRoute) },
            ],
          },
          { path: '*', ...routePage(NotFoundRoute) },
        ],
      },
      { path: '/legal/', ...routePage(LegalRoute) },
      { path: '/contact/', ...routePage(ContactRoute) },
    ],
  },
  // An invited user sets their password: with or without a session (never sent away from it).
  { path: '/invitation/', ...routePage(InvitationRoute) },
  { path: '/console/*', ...routePage(ConsoleRoute) },
  // Logged in: the not-found view inside the layout; logged out: styled like the login page.
  { path: '*', element: <NotFoundSwitch /> },
];

/** Declarative routing (no data router): a smaller bundle, and the app loads its data itself. */
export function AppRoutes() {
  return useRoutes(routes);
}

/**
 * Asks for the code an address needs (the layout's and the view's chunks) at once, at boot,
 * instead of the layout's chunk first and the view's once the layout has rendered: the browser
 * fetches them side by side with the boot's data and texts. React's lazy pages then find the
 * modules already loaded or on their way (the same import, the same module).
 */
export function preloadRouteCode(pathname: string, signedIn: boolean): void {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const code = match.route.handle as RouteCode | undefined;
    // without a session these pages send the visitor to the login page: their code is not needed
    if (code?.session && !signedIn) return;
    // a chunk that fails here fails again, and is reported, when its page renders
    code?.load().catch(() => undefined);
  }
}
