import { LANGUAGES, type Language, type ThemeColor } from '@panel247/contract/constants';
import type { PermissionListData, PermissionSetData } from '@panel247/contract/permissions';
import { QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { StaticRouter } from 'react-router';
import { Root } from '../app/root';
import type { PermissionsKnown } from '../app/route-data';
import { drawnOnServer, firstQueriesAt, loadRouteCode, routeModules } from '../app/router';
import { encodeParams, type Params } from '../lib/api-client';
import { type BootData, seedBoot } from '../lib/boot-data';
import { setDisplayHints } from '../lib/display-hints';
import { i18next, initI18n, loadAreaTexts, switchI18nLanguage } from '../lib/i18n';
import { localeModule } from '../lib/locale-parts';
import { renderWithTitle } from '../lib/use-page-title';

/**
 * A signed-in page's first screen drawn on the server, with the app's own components, routes and
 * queries, so the browser shows the view's first rows as soon as the HTML is in, and the app then
 * takes that HTML over (hydrates it) instead of drawing it again. The server (apps/server/src/http/
 * server-render.ts) runs this in a worker thread: a render is 50-150 ms of CPU that must not hold
 * the API's event loop.
 */

/** One of the view's first calls, with the query key its answer (or its `field`) goes under. */
export interface ViewCall {
  queryKey: unknown[];
  path: string;
  params?: Params;
  field?: string;
}

/** What the page is drawn for: what the browser would know when it renders it. */
export interface PageToDraw {
  /** The address, path and query. */
  url: string;
  language: Language;
  /** The boot data the page carries, with the view's first data (`queries`). */
  boot: BootData;
  /** From the view cookie (apps/server/src/http/view-hints.ts). */
  hints: { timeZone: string; phone: boolean; color: ThemeColor | null };
}

/** A view's call as the server makes it: its query form-encoded as the browser's api-client encodes it. */
export interface EncodedViewCall {
  queryKey: unknown[];
  path: string;
  query: string;
  /** The field of the answer the query holds; none: the whole answer. */
  field?: string;
}

/** What drawing `pathname` takes: whether it is drawn here at all, and with which calls' answers. */
export interface DrawPlan {
  draws: boolean;
  calls: EncodedViewCall[];
  /**
   * The modules the app then loads to take the page over (the layout's and the view's code, the
   * page language's texts), as the build's manifest names them: the page links their chunks.
   */
  modules: string[];
}

/** A drawn page's HTML, and the tab's title its view names (null: the page's own). */
export interface DrawnHtml {
  html: string;
  title: string | null;
}

/** An address's path and query, as the browser's `location` has them. */
function splitUrl(url: string): { pathname: string; search: URLSearchParams } {
  const at = url.indexOf('?');
  return at < 0
    ? { pathname: url, search: new URLSearchParams() }
    : { pathname: url.slice(0, at), search: new URLSearchParams(url.slice(at + 1)) };
}

/**
 * Whether the server draws `url` (path and query) for this boot (a signed-in user on a screen of
 * the layout), and the calls the view is drawn with.
 */
export function drawPlan(url: string, boot: BootData): DrawPlan {
  const { pathname } = splitUrl(url);
  const draws = Boolean(boot.user) && drawnOnServer(pathname);
  if (!draws) return { draws, calls: [], modules: [] };
  const texts = LANGUAGES.includes(boot.language as Language)
    ? [localeModule(boot.language, 'start'), localeModule(boot.language, 'areas')]
    : [];
  return {
    draws,
    calls: viewCalls(url, boot).map(({ queryKey, path, params, field }) => ({
      queryKey,
      path,
      query: encodeParams(params ?? {}).toString(),
      ...(field === undefined ? {} : { field }),
    })),
    modules: [...routeModules(pathname), ...texts],
  };
}

/**
 * The calls the view at `url` is drawn with: its first data, when the permissions the page
 * carries open the view (as the boot's prefetch decides); none otherwise.
 */
export function viewCalls(url: string, boot: BootData): ViewCall[] {
  if (!boot.user) return [];
  const { pathname, search } = splitUrl(url);
  const first = firstQueriesAt(pathname);
  if (!first) return [];
  const known: PermissionsKnown = {
    list: boot.permissions as PermissionListData | undefined,
    set: (id) => (boot.set?.id === id ? (boot.set.data as PermissionSetData) : undefined),
  };
  return first(known, { search, language: boot.language }).map((query) => ({
    queryKey: [...query.queryKey],
    ...query.call,
  }));
}

/** One i18next per language, sharing one store of every language's texts: a render never switches one. */
let texts: Promise<Map<Language, i18n>> | null = null;

function textInstances(): Promise<Map<Language, i18n>> {
  texts ??= (async () => {
    await initI18n(LANGUAGES[0]);
    await loadAreaTexts();
    for (const language of LANGUAGES) await switchI18nLanguage(language);
    const instances = new Map<Language, i18n>();
    for (const language of LANGUAGES) {
      const instance = i18next.cloneInstance({ lng: language, initAsync: false });
      await instance.changeLanguage(language);
      instances.set(language, instance);
    }
    return instances;
  })();
  // a failed load is tried again by the next page
  texts.catch(() => {
    texts = null;
  });
  return texts;
}

/** The HTML of `page`'s app: what the browser's first render will be, to the last attribute. */
export async function drawPage(page: PageToDraw): Promise<DrawnHtml> {
  const { pathname } = splitUrl(page.url);
  const [instances] = await Promise.all([textInstances(), loadRouteCode(pathname, true)]);
  const i18n = instances.get(page.language);
  if (!i18n) throw new Error(`no texts for ${page.language}`);
  // nothing is fetched here: what the view has no data for is drawn as loading, as the browser would
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  seedBoot(queryClient, page.language, page.boot);
  // renderToString is synchronous: these hints hold for this page's render alone
  setDisplayHints({ timeZone: page.hints.timeZone, phone: page.hints.phone });
  try {
    return renderWithTitle(() =>
      renderToString(
        <I18nextProvider i18n={i18n}>
          <Root
            initialLanguage={page.language}
            queryClient={queryClient}
            router={(routes) => <StaticRouter location={page.url}>{routes}</StaticRouter>}
            savedColor={page.hints.color}
          />
        </I18nextProvider>,
      ),
    );
  } finally {
    queryClient.clear();
  }
}
