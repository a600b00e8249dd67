import type { QueryClient } from '@tanstack/react-query';
import { type ReactNode, Suspense } from 'react';
import { matchRoutes, Navigate, type RouteObject, useRoutes } from 'react-router';
import { DelayedSpinner } from '../components/delayed-spinner';
import { useApp } from '../lib/app-context';
import { loadAreaTexts } from '../lib/i18n';
import { parseId, paths } from '../lib/resource-paths';
import { PageHydrated } from '../lib/server-drawn';
import { PublicOnly, RequireSession } from './guards';
import { type LazyPage, lazyPage } from './lazy-page';
import {
  ACTIVITY_VIEW,
  type AccountViewData,
  accountFirstQueries,
  BACKUPS_VIEW,
  CRON_VIEW,
  DATABASES_VIEW,
  DNS_VIEW,
  DOMAIN_VIEW,
  FILES_VIEW,
  type FirstQueries,
  FTP_VIEW,
  HOSTING_VIEW,
  ITEM_ACTIVITY_VIEW,
  type ItemViewData,
  itemFirstQueries,
  MAIL_VIEW,
  PREFERENCES_VIEW,
  prefetchFirstQueries,
  SITES_VIEW,
  SPAM_VIEW,
  STATS_VIEW,
  USER_VIEW,
  USERS_VIEW,
} from './route-data';

// One chunk per route: the login route must stay under its 170 KB gzipped budget.
const LoginRoute = lazyPage(() => import('../features/auth/routes/login-route'));
// Every screen behind the session renders inside the layout: its chunk brings their texts along.
const AppLayout = lazyPage(() =>
  Promise.all([import('../features/shell/components/app-layout'), loadAreaTexts()]).then(([layout]) => layout),
);
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
  if (!user) return page(NotFoundRoute);
  return (
    <Suspense fallback={<DelayedSpinner />}>
      <AppLayout.Page>{page(NotFoundRoute)}</AppLayout.Page>
    </Suspense>
  );
}

/**
 * `lazy` in its Suspense boundary. A route's innermost page notes when it has hydrated, which
 * makes a page the server drew usable (lib/server-drawn.tsx); a page that holds the view (the
 * layout's) leaves that to the view's.
 */
function page({ Page }: LazyPage, { holdsView = false } = {}): ReactNode {
  return (
    <Suspense fallback={<DelayedSpinner />}>
      <Page />
      {holdsView ? null : <PageHydrated />}
    </Suspense>
  );
}

/** What a route's handle holds: the code its address needs, for the boot to load before the first render. */
interface RouteCode {
  /** The pages this route renders (for a user, when `signedOut` is given). */
  pages: LazyPage[];
  /** What it renders instead when nobody is signed in (none of its children's). */
  signedOut?: LazyPage[];
  /** Its view's first data, asked beside its code: an item's view's, or the account's. */
  data?: RouteViewData;
  /** The server may draw this route's pages for a signed-in user (src/server/render-page.tsx). */
  drawnOnServer?: boolean;
}

/** The first data a route's view names: of the item its address's `:id` names, or of the account. */
type RouteViewData = { item: ItemViewData } | { account: AccountViewData };

/** A route that renders `lazy` (in its Suspense), with the handle that names its code and first data. */
function pageRoute(lazy: LazyPage, data?: RouteViewData): Pick<RouteObject, 'element' | 'handle'> {
  return { element: page(lazy), handle: { pages: [lazy], data } satisfies RouteCode };
}

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Navigate to={paths.dashboard} replace />,
    handle: { pages: [AppLayout, DashboardRoute], signedOut: [LoginRoute] } satisfies RouteCode,
  },
  {
    path: '/login/',
    element: <PublicOnly>{page(LoginRoute)}</PublicOnly>,
    handle: { pages: [LoginRoute] } satisfies RouteCode,
  },
  {
    element: <RequireSession>{page(AppLayout, { holdsView: true })}</RequireSession>,
    // the screens behind the session, in the layout; not the console, the invitation or a redirect
    handle: { pages: [AppLayout], signedOut: [LoginRoute], drawnOnServer: true } satisfies RouteCode,
    children: [
      {
        path: '/admin/',
        children: [
          { index: true, ...pageRoute(DashboardRoute) },
          { path: 'contact/', ...pageRoute(ContactRoute) },
          { path: 'preferences/', ...pageRoute(PreferencesRoute, { account: PREFERENCES_VIEW }) },
          { path: 'domain/', ...pageRoute(DomainListRoute) },
          { path: 'service/', ...pageRoute(ServiceListRoute) },
          { path: 'mail/', ...pageRoute(MailListRoute) },
          { path: 'activity/', ...pageRoute(ActivityRoute, { account: ACTIVITY_VIEW }) },
          { path: 'users/', ...pageRoute(UsersRoute, { account: USERS_VIEW }) },
          { path: 'users/:id/', ...pageRoute(UserRoute, { account: USER_VIEW }) },
          { path: ':id/', ...pageRoute(ItemRedirectRoute) },
          { path: ':id/domain/', ...pageRoute(DomainRoute, { item: DOMAIN_VIEW }) },
          { path: ':id/mail/', ...pageRoute(MailRoute, { item: MAIL_VIEW }) },
          { path: ':id/activity/', ...pageRoute(ItemActivityRoute, { item: ITEM_ACTIVITY_VIEW }) },
          {
            // Each view of a service gates itself on the permissions it needs: a gate here as well
            // would hold the view's chunk back until the item's permissions had loaded.
            path: ':id/service/',
            children: [
              { index: true, ...pageRoute(ServiceOverviewRoute, { item: HOSTING_VIEW }) },
              { path: 'ftp/', ...pageRoute(FtpRoute, { item: FTP_VIEW }) },
              { path: 'files/', ...pageRoute(FilesRoute, { item: FILES_VIEW }) },
              { path: 'subdomain/', ...pageRoute(ServiceSitesRoute, { item: SITES_VIEW }) },
              { path: 'ddbb/', ...pageRoute(DatabasesRoute, { item: DATABASES_VIEW }) },
              { path: 'dns/', ...pageRoute(ServiceDnsRoute, { item: DNS_VIEW }) },
              { path: 'backups/', ...pageRoute(BackupsRoute, { item: BACKUPS_VIEW }) },
              { path: 'cron/', ...pageRoute(CronRoute, { item: CRON_VIEW }) },
              { path: 'stats/', ...pageRoute(StatsRoute, { item: STATS_VIEW }) },
              { path: 'mail/spam/', ...pageRoute(MailSpamRoute, { item: SPAM_VIEW }) },
            ],
          },
          { path: '*', ...pageRoute(NotFoundRoute) },
        ],
      },
      { path: '/legal/', ...pageRoute(LegalRoute) },
      { path: '/contact/', ...pageRoute(ContactRoute) },
    ],
  },
  // An invited user sets their password: with or without a session (never sent away from it).
  { path: '/invitation/', ...pageRoute(InvitationRoute) },
  { path: '/console/*', ...pageRoute(ConsoleRoute) },
  // Logged in: the not-found view inside the layout; logged out: styled like the login page.
  {
    path: '*',
    element: <NotFoundSwitch />,
    handle: { pages: [AppLayout, NotFoundRoute], signedOut: [NotFoundRoute] } satisfies RouteCode,
  },
];

/**
 * The routes `pathname` matches, remembered for the last few addresses: React Router flattens and
 * ranks the whole route table at every `matchRoutes` call (about 1 ms on the server), and a page's
 * drawing asks for the same address's matches four times (its plan, its first calls, its code).
 * The matches are only read.
 */
const MATCHES_KEPT = 32;
const recentMatches = new Map<string, ReturnType<typeof matchRoutes>>();

function routeMatches(pathname: string): NonNullable<ReturnType<typeof matchRoutes>> {
  let matches = recentMatches.get(pathname);
  if (matches === undefined) {
    matches = matchRoutes(routes, pathname);
    if (recentMatches.size >= MATCHES_KEPT) recentMatches.delete(recentMatches.keys().next().value as string);
    recentMatches.set(pathname, matches);
  }
  return matches ?? [];
}

/** Whether the server may draw `pathname`'s first screen for a signed-in user: a screen in the layout. */
export function drawnOnServer(pathname: string): boolean {
  return routeMatches(pathname).some(({ route }) => (route.handle as RouteCode | undefined)?.drawnOnServer);
}

/** The first queries of the view `pathname` names, if it names any: an item's view's or the account's. */
export function firstQueriesAt(pathname: string): FirstQueries | null {
  for (const { route, params } of routeMatches(pathname)) {
    const data = (route.handle as RouteCode | undefined)?.data;
    if (!data) continue;
    const id = parseId(params.id);
    if ('account' in data) return accountFirstQueries(data.account, id);
    // an item's address with no item's id in it names nothing
    return id === null ? null : itemFirstQueries(data.item, id);
  }
  return null;
}

/**
 * The pages `pathname` renders: the layout's and the view's. Without a session an address behind
 * it renders the login page (or the bare not-found page): those instead.
 */
function routePages(pathname: string, signedIn: boolean): Set<LazyPage> {
  const pages = new Set<LazyPage>();
  for (const { route } of routeMatches(pathname)) {
    const code = route.handle as RouteCode | undefined;
    if (!code) continue;
    if (code.signedOut && !signedIn) {
      for (const lazy of code.signedOut) pages.add(lazy);
      break;
    }
    for (const lazy of code.pages) pages.add(lazy);
  }
  return pages;
}

/**
 * Loads the code `pathname` renders (the layout's and the view's chunks, with the layout's texts)
 * at once. Resolves when the code is in, or failed (the page then loads it, and shows its error,
 * as any lazy page does). The server loads the same before drawing a page.
 */
export function loadRouteCode(pathname: string, signedIn: boolean): Promise<unknown> {
  return Promise.allSettled([...routePages(pathname, signedIn)].map((lazy) => lazy.load()));
}

/** The modules of the code a signed-in user's `pathname` renders, as the build's manifest names them. */
export function routeModules(pathname: string): string[] {
  return [...new Set([...routePages(pathname, true)].flatMap((lazy) => lazy.modules))];
}

/**
 * The boot's start: the address's code, and an item view's first data beside it, instead of each
 * after the one before has rendered (see `loadRouteCode`). Without a session, no data.
 */
export function preloadRoute(
  { pathname, search }: { pathname: string; search: string },
  { signedIn, queryClient, language }: { signedIn: boolean; queryClient: QueryClient; language: string },
): Promise<unknown> {
  const first = signedIn ? firstQueriesAt(pathname) : null;
  if (first) prefetchFirstQueries(queryClient, first, { search: new URLSearchParams(search), language });
  return loadRouteCode(pathname, signedIn);
}

/** Declarative routing (no data router): a smaller bundle, and the app loads its data itself. */
export function AppRoutes() {
  return useRoutes(routes);
}
