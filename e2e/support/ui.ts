import { VIEW_COOKIE } from '@panel247/contract/constants';
import type { Locator, Page, Route } from 'playwright-core';

/** The open dialog of a modal (its root stays in the page while closed; the dialog does not). */
export function dialog(page: Page, testId: string): Locator {
  return page.getByTestId(testId).getByRole('dialog');
}

/** Waits for a toast (or any text) to show. */
export async function waitToast(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor();
}

/** The error text Mantine ties to an input (aria-describedby → the `-error` element under it). */
export async function fieldError(locator: Locator): Promise<string> {
  return locator.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? document.getElementById(id) : null))
      .filter((node): node is HTMLElement => Boolean(node?.id.endsWith('-error')))
      .map((node) => node.textContent ?? '')
      .join(' '),
  );
}

/** Waits until the input inside `scope` with `testId` is marked invalid (a server field error came back). */
export async function waitInvalid(page: Page, scopeTestId: string, testId: string): Promise<void> {
  await page.waitForFunction(
    ([scope, id]) =>
      document.querySelector(`[data-testid="${scope}"] [data-testid="${id}"]`)?.getAttribute('aria-invalid') === 'true',
    [scopeTestId, testId] as const,
  );
}

/** Each row of a list as its cells' text joined with " | " (the first `cells` cells). */
export async function tableRows(page: Page, selector: string, cells: number): Promise<string[]> {
  return page.locator(selector).evaluateAll(
    (trs, count) =>
      trs.map((tr) =>
        Array.from(tr.querySelectorAll('td'))
          .slice(0, count)
          .map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim())
          .join(' | '),
      ),
    cells,
  );
}

/** Waits until the rows' `data-name`s are exactly `wanted`, in order. */
export async function waitNames(page: Page, selector: string, wanted: string[]): Promise<void> {
  await page.waitForFunction(
    ([rows, expected]) =>
      JSON.stringify(
        Array.from(document.querySelectorAll(rows as string)).map((tr) => tr.getAttribute('data-name')),
      ) === JSON.stringify(expected),
    [selector, wanted] as const,
  );
}

/** A JSON call to the API from the page (its session cookie and the CSRF header), for test setup. */
export async function apiFromPage<T>(page: Page, path: string, body?: string): Promise<T> {
  return page.evaluate(
    async ([url, form]) => {
      const response = await fetch(url as string, {
        method: form === null ? 'GET' : 'POST',
        headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
        body: form === null ? undefined : (form as string),
      });
      return (await response.json()) as T;
    },
    [`/p247/${path}`, body ?? null] as const,
  );
}

/** A successful API answer carrying `data`, for `route.fulfill` (a list stubbed as empty or slow). */
export function apiAnswer(data: unknown) {
  return {
    contentType: 'application/json',
    headers: { 'x-dd': '1' },
    body: JSON.stringify({
      system: { valid: true, errors: [], inputs: [], info: [], debug: [], job: null, statusCode: 0, mlcVer: '' },
      data,
    }),
  };
}

/**
 * The page's title once it reads `expected`, or what it reads after 30 s: a view sets its title
 * when its item has loaded, which may come well after its first rows on a loaded machine (the
 * first hosting overview of a run, while the API tier runs beside it, once took 11 s).
 */
export async function titleOnceSet(page: Page, expected: string): Promise<string> {
  await page.waitForFunction((title) => document.title === title, expected, { timeout: 30_000 }).catch(() => undefined);
  return page.title();
}

/**
 * Holds every call matching `pattern` until the returned `release()`, then lets `answer` reply: a
 * test sees the page while the call is pending however fast or slow the machine is (a fixed delay
 * was shorter than a loaded machine's first render once the view's data was asked at boot).
 */
export async function holdCalls(page: Page, pattern: string, answer: (route: Route) => Promise<void>) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(pattern, async (route) => {
    await released;
    await answer(route);
  });
  return release;
}

/**
 * The next load of `page` is drawn by the app alone, as a first visit's is: without the view
 * cookie the server does not draw the page (apps/server/src/http/view-hints.ts), so the view's
 * first calls leave from the browser, where a test can hold them. The app writes the cookie again
 * at its boot.
 */
export async function drawnByTheApp(page: Page): Promise<void> {
  await page.context().clearCookies({ name: VIEW_COOKIE });
}
