import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { Language } from '@panel247/contract/constants';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BootData } from './boot-data.ts';
import { documentLanguage, forcedLanguage } from './document-language.ts';
import { notFoundEnvelope } from './error-handler.ts';
import { IndexPage, type PageRequest, type ShellBrand } from './index-page.ts';
import { encodePage, PageStream } from './page-encoding.ts';
import type { DrawnScreen, PageDrawing } from './server-draw.ts';

/** Vite names every file under assets/ by its content's hash: a changed file is a new address. */
const HASHED_FOLDER = 'assets';
/** What the build writes for the server alone (server-render.ts, index-page.ts). */
const SERVER_ONLY = /^\/(?:server|\.vite)\//;

export interface WebAppOptions {
  /** The built web app (apps/web/dist); without its index.html the panel answers 503. */
  dist: string;
  basePath: string;
  defaultLanguage: Language;
  /** The captcha the login form shows: the login frame is drawn for the ones it knows. */
  captcha: string;
  /** The brand of a page request: by its host, or by the other site's page that linked to it. */
  brandOf: (host: string | undefined, referer: string | undefined) => Promise<ShellBrand>;
  /** Whether the request carries a session cookie (valid or not). */
  hasSessionCookie: (request: FastifyRequest) => boolean;
  /**
   * A page's first answers (boot-data.ts): a signed-in visit's, or the login page's configuration
   * (`session: false`: nobody is asked for); none: the app asks them itself.
   */
  bootData?: (
    request: FastifyRequest,
    page: { language: Language; forcedLanguage: boolean; referer?: string; session: boolean },
  ) => Promise<BootData>;
  /**
   * A signed-in page's first screen drawn on the server (server-draw.ts), from its boot data, and
   * the code the page links; it may add the view's first data to the boot data. None, or no
   * `drawn`: the app draws the page itself.
   */
  drawPage?: (
    request: FastifyRequest,
    page: { language: Language; forcedLanguage: boolean; boot: BootData },
  ) => Promise<PageDrawing>;
}

const LOGIN_PATH = '/login/';

/** The Referer when another site linked here: the app's config call sends it as `_referer_`. */
function foreignReferer(request: FastifyRequest): string | undefined {
  const referer = request.headers.referer;
  return referer && !referer.startsWith(`${request.protocol}://${request.headers.host}/`) ? referer : undefined;
}

/** A page to send and, on a drawn page, its first screen while it is drawn (none if that failed). */
interface PageToSend {
  page: PageRequest;
  screen?: Promise<DrawnScreen | undefined>;
}

async function pageRequest(request: FastifyRequest, options: WebAppOptions): Promise<PageToSend> {
  const page: PageRequest = { language: documentLanguage(request), sessionCookie: options.hasSessionCookie(request) };
  const about = { language: page.language, forcedLanguage: forcedLanguage(request) !== undefined };
  // the app asks for what the page does not carry: a page without it still works
  const bootData = (session: boolean) =>
    options.bootData?.(request, { ...about, referer: foreignReferer(request), session }).catch((error) => {
      request.log.warn({ err: error }, 'page without its boot data');
      return undefined;
    });
  let screen: PageToSend['screen'];
  if (page.sessionCookie) {
    page.boot = await bootData(true);
    const boot = page.boot;
    if (boot?.user && options.drawPage) {
      // the app draws the page itself, as it always could
      const notDrawn = (error: unknown) => {
        request.log.warn({ err: error }, 'page not drawn on the server');
        return undefined;
      };
      const drawing = await options.drawPage(request, { ...about, boot }).catch(notDrawn);
      page.modules = drawing?.modules;
      page.scheme = drawing?.drawing?.scheme;
      screen = drawing?.drawing?.screen.catch(notDrawn);
    }
  }
  const captcha = options.captcha;
  // With a session the app leaves /login/ at once; third-party captchas have sizes of their own.
  if (request.url.split('?')[0] !== LOGIN_PATH || page.sessionCookie || (captcha !== 'altcha' && captcha !== 'none')) {
    return { page, screen };
  }
  try {
    const brand = await options.brandOf(request.headers.host, foreignReferer(request));
    page.shell = { brand, captcha, year: new Date().getFullYear() };
  } catch (error) {
    // No brand yet (an empty database): the page still loads, drawn by the app alone.
    request.log.warn({ err: error }, 'login frame without a brand');
  }
  // The configuration the login form is drawn with: the app renders it without a call first (one
  // round trip, and on a slow phone the first request's own cost, before the form is the app's).
  if (page.shell) page.boot = await bootData(false);
  return { page };
}

/**
 * A drawn page's head now and the rest once its first screen is drawn: the browser commits the
 * page and loads its stylesheets (or finds them in its cache) while the server draws,
 * instead of after (a mail page's head leaves in 26 ms, its last byte in 106 ms as before;
 * apps/server/bench/README.md). The head depends on nothing the drawing makes; a failed drawing
 * ends the page as the app's to draw.
 */
function streamedPage(index: IndexPage, { page, screen }: Required<PageToSend>, acceptEncoding?: string): PageStream {
  const stream = new PageStream(acceptEncoding);
  stream.write(index.parts(page).head);
  screen
    .then((drawn) => stream.end(index.parts({ ...page, screen: drawn }).rest))
    .catch((error: Error) => stream.abort(error));
  return stream;
}

/**
 * Serves the built SPA; unknown non-API paths get index.html so client routes work on reload.
 * Text files go out as the Brotli or gzip copies the build wrote beside them, and the hashed
 * ones are cached for a year: a returning visitor fetches only index.html.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions) {
  const indexFile = path.join(options.dist, 'index.html');
  const hasWeb = existsSync(indexFile);
  const index = hasWeb ? new IndexPage(options.dist) : undefined;
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: options.dist,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      // the server's page renderer and the build's manifest are the server's, not the browser's
      allowedPath: (pathName) => !SERVER_ONLY.test(pathName),
      setHeaders(reply, file) {
        if (path.relative(options.dist, file).split(path.sep)[0] === HASHED_FOLDER) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith(options.basePath)) return notFoundEnvelope(request, reply, options.defaultLanguage);
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.code(404).send();
    // A hashed file that is not there (a page of an older or newer build) is a 404, not the page:
    // answering index.html would make the browser run HTML as a script and fail silently.
    if (request.url.startsWith(`/${HASHED_FOLDER}/`))
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    if (!index) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built: run `npm run build` (or `npm start`, which builds it).');
    }
    const toSend = await pageRequest(request, options);
    const acceptEncoding = request.headers['accept-encoding'];
    const { body, encoding } = toSend.screen
      ? streamedPage(index, { page: toSend.page, screen: toSend.screen }, acceptEncoding)
      : encodePage(index.render(toSend.page), acceptEncoding);
    if (encoding) reply.header('content-encoding', encoding);
    // Drawn per visitor (language, brand, session hint, the session's boot data): never kept by a
    // shared cache, and asked again by the browser at each visit.
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'private, no-cache')
      .header('vary', 'Accept-Encoding, Accept-Language, Cookie')
      .send(body);
  });
}
