import { type RouteObject, useRoutes } from 'react-router';
import { loadAreaTexts, loadTexts } from '../../../lib/i18n';
import { AccountsView } from '../components/accounts-view';
import { ActivityView } from '../components/activity-view';
import { BrandEditor } from '../components/brand-editor';
import { BrandsView } from '../components/brands-view';
import { ConsoleLayout } from '../components/console-layout';
import { ConsoleLoginPage } from '../components/console-login-page';
import { ConsoleNotFound } from '../components/console-not-found';
import { OutboxView } from '../components/outbox-view';
import { PlansView } from '../components/plans-view';
import { RequireStaff } from '../components/require-staff';
import { ServersView } from '../components/servers-view';
import { ServicesView } from '../components/services-view';
import { WorkView } from '../components/work-view';
import { consoleTextLoaders } from '../lib/console-texts';

/**
 * The provider's console (`/console/…`): its own sign-in, then its layout. Each section is a route
 * here and an entry of the layout's menu (`console-nav.tsx`). A table for
 * useRoutes, like the app's own: <Routes> and <Route> would add their code to the entry chunk
 * (react-router lives there), which the customers' login route loads.
 */
const routes: RouteObject[] = [
  { path: 'login/', element: <ConsoleLoginPage /> },
  {
    element: (
      <RequireStaff>
        <ConsoleLayout />
      </RequireStaff>
    ),
    children: [
      { index: true, element: <ServicesView /> },
      { path: 'plans/', element: <PlansView /> },
      { path: 'accounts/', element: <AccountsView /> },
      { path: 'brands/', element: <BrandsView /> },
      { path: 'brands/:slug/', element: <BrandEditor /> },
      { path: 'work/', element: <WorkView /> },
      { path: 'servers/', element: <ServersView /> },
      { path: 'outbox/', element: <OutboxView /> },
      { path: 'activity/', element: <ActivityView /> },
      { path: '*', element: <ConsoleNotFound /> },
    ],
  },
];

function ConsoleRoute() {
  return useRoutes(routes);
}

/**
 * The route's module for `React.lazy`, once its texts are in: the console's own part, and the
 * areas' (its lists, dialogs and password fields are the shared components).
 */
export async function withTexts() {
  await Promise.all([loadAreaTexts(), loadTexts('console', consoleTextLoaders)]);
  return { default: ConsoleRoute };
}
