import { VIEW_COOKIE } from '@panel247/contract/constants';
import { ADMIN } from '../support/panel';
import type { PanelServer } from '../support/server';

/** What the browser benches share: a signed-in admin, the view cookie, a warmed renderer. */

const CSRF = { 'x-dd-request': '1' };

/** The view cookie of a desktop browser in UTC, light, no saved colour, as the app writes it. */
export const VIEW = encodeURIComponent(
  new URLSearchParams({ tz: 'UTC', phone: '0', scheme: 'light', color: '' }).toString(),
);

/** The admin's session cookie (`name=value`). */
export async function login(server: PanelServer): Promise<string> {
  const response = await fetch(`${server.url}/p247/user/login/`, {
    method: 'POST',
    headers: { ...CSRF, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ domainName: ADMIN.domain, username: ADMIN.user, password: ADMIN.password }),
  });
  const cookie = response.headers.getSetCookie().find((line) => line.includes('p247_sid='));
  if (!cookie) throw new Error(`login failed on ${server.url}: HTTP ${response.status}`);
  return cookie.split(';')[0] as string;
}

/** The id of the admin's demo service, whose mail, DNS and FTP views the benches visit. */
export async function demoServiceId(server: PanelServer, cookie: string): Promise<number> {
  const response = await fetch(`${server.url}/p247/permission/list/`, { headers: { ...CSRF, cookie } });
  const body = (await response.json()) as { data: { permissions: { id: number; reference: string }[] } };
  const entry = body.data.permissions.find((permission) => permission.reference === ADMIN.domain);
  if (!entry) throw new Error(`${ADMIN.domain} is not in the permission list`);
  return entry.id;
}

/**
 * Has the server draw the page WARM_DRAWS times before it is timed: a running server's renderer,
 * whose code V8 has optimised, not one that has just started (its first pages take 2-3× longer).
 */
const WARM_DRAWS = 20;
export async function drawnBefore(url: string, cookie: string): Promise<void> {
  for (let draw = 0; draw < WARM_DRAWS; draw += 1) {
    const response = await fetch(url, { headers: { cookie: `${cookie}; ${VIEW_COOKIE}=${VIEW}` } });
    const html = await response.text();
    if (draw === 0 && !html.includes('data-server-drawn')) throw new Error(`${url} was not drawn on the server`);
  }
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
