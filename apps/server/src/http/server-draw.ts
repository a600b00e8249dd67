import type { BootData, PageCall } from './boot-data.ts';
import type { PageRenderer } from './server-render.ts';
import type { ViewHints } from './view-hints.ts';

/** A page's first screen as the server drew it (index-page.ts puts it in `#root`). */
export interface DrawnScreen {
  html: string;
  /** The tab's title the view names; null: the page's own. */
  title: string | null;
}

/** What the server made of a signed-in page: the code it links and whether it draws its first screen. */
export interface PageDrawing {
  /** The modules the app draws or takes the page over with, as the build's manifest names them. */
  modules: string[];
  /**
   * Set when the page is drawn: the colour scheme its head names, known at once, and its first
   * screen once drawn, so the page's head can leave before the drawing (web-app.ts).
   */
  drawing?: { scheme: ViewHints['scheme']; screen: Promise<DrawnScreen> };
}

/** An API path as the app's routes write them (contract/routes.ts): nothing else is asked for a page. */
const API_PATH = /^(?:[a-z0-9_-]+\/)+$/;
/** A field of an answer's data, as the contract names them. */
const ANSWER_FIELD = /^[a-zA-Z][a-zA-Z0-9_]*$/;
/**
 * How long the page waits for one of the view's first calls. The page's body waits for all of
 * them, the layout included, so a slow one (the hosting overview measures the home, a walk of
 * every file) would hold the whole screen: past this the view draws that part as loading and the
 * app asks for it itself. Their usual time is 5-50 ms.
 */
export const VIEW_CALL_DEADLINE_MS = 1500;

/**
 * Whether a signed-in page's first screen is drawn (when it is one of the layout's and the browser
 * sent the view's hints), and its drawing: asks the view's first calls for the page's own request
 * (`call`, the page's cookie and no other), puts their answers in the boot data the page carries
 * (so the app's first render is the server's), and renders the app in the renderer's worker. A
 * call that fails, or has not answered by `deadlineMs`, is left out, as the boot data's are: the
 * view draws it as loading and the app asks for it again. Without the view's hints (a browser's
 * first visit) the app draws the page, but the page still names the code it will load.
 */
export async function drawSignedInPage(
  renderer: PageRenderer,
  call: PageCall,
  page: { url: string; language: string; boot: BootData; hints: ViewHints | null },
  deadlineMs = VIEW_CALL_DEADLINE_MS,
): Promise<PageDrawing> {
  const { draws, calls, modules } = await renderer.plan(page.url, page.boot);
  // the console, the invitation page and the like are the app's to draw
  if (!draws) return { modules: [] };
  if (!page.hints) return { modules };
  const { timeZone, phone, color, scheme } = page.hints;
  const screen = (async () => {
    const answers = await Promise.all(
      calls.map(async (viewCall) => {
        if (!API_PATH.test(viewCall.path)) throw new Error(`not an API path: ${viewCall.path}`);
        if (viewCall.field !== undefined && !ANSWER_FIELD.test(viewCall.field))
          throw new Error(`not an answer's field: ${viewCall.field}`);
        const data = await withinDeadline(call('GET', viewCall.path, new URLSearchParams(viewCall.query)), deadlineMs);
        if (data === undefined) return null;
        // the query holds what the view's code reads: the whole answer, or the one field it names
        const held = viewCall.field === undefined ? data : ownField(data, viewCall.field);
        return held === undefined ? null : { queryKey: viewCall.queryKey, data: held };
      }),
    );
    const boot: BootData = { ...page.boot, queries: answers.filter((answer) => answer !== null) };
    const drawn = await renderer.draw({
      url: page.url,
      language: page.language,
      boot,
      hints: { timeZone, phone, color },
    });
    // the page carries what it was drawn with, for the app's first render
    page.boot.queries = boot.queries;
    page.boot.drawnFor = { phone };
    return drawn;
  })();
  return { modules, drawing: { scheme, screen } };
}

/** `field` of an answer's data when the answer has it as its own (never one of Object's). */
function ownField(data: unknown, field: string): unknown {
  return typeof data === 'object' && data !== null && Object.hasOwn(data, field)
    ? (data as Record<string, unknown>)[field]
    : undefined;
}

/** `answer`, or undefined when it has not come by `ms` (the call itself goes on, unread). */
async function withinDeadline(answer: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
