import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/** An answer of the panel's API: the envelope and its data. */
export interface PanelAnswer<T> {
  system: { valid: boolean; errors: string[]; inputs?: string[] };
  data: T;
}

/** A logged-in client of the panel's API as the web app calls it (form posts, the CSRF header). */
export interface PanelApiClient {
  <T>(method: 'GET' | 'POST', path: string, params?: Record<string, string>): Promise<PanelAnswer<T>>;
  /** The session cookie, for the calls that are not form posts (an upload's raw bytes). */
  cookie(): string;
}

/**
 * Logs in at `baseUrl` (http://host:port) and answers a client. A panel with the ALTCHA captcha
 * (the stack's) gets its challenge solved here, as the browser's widget would; one configured
 * without a captcha is simply asked.
 */
export async function loginToPanel(
  baseUrl: string,
  login: { domainName: string; username: string; password: string },
): Promise<PanelApiClient> {
  const base = `${baseUrl}/p247/`;
  const form: Record<string, string> = { ...login };
  const config = await fetch(`${base}captcha/challenge/`);
  if (config.ok) {
    const challenge = (await config.json()) as Parameters<typeof solveChallenge>[0]['challenge'];
    const solution = await solveChallenge({ challenge, deriveKey });
    form.recaptcha_response = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }
  const answer = await fetch(`${base}user/login/`, {
    method: 'POST',
    headers: { 'x-dd-request': '1', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const session = answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const body = (await answer.json()) as PanelAnswer<unknown>;
  if (!body.system.valid) throw new Error(`login to ${baseUrl} refused: ${body.system.errors.join(' ')}`);
  const call = async <T>(method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) => {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(method === 'GET' ? `${base}${path}?${query}` : `${base}${path}`, {
      method,
      headers: { 'x-dd-request': '1', cookie: session, 'content-type': 'application/x-www-form-urlencoded' },
      body: method === 'POST' ? query : undefined,
    });
    return (await response.json()) as PanelAnswer<T>;
  };
  return Object.assign(call, { cookie: () => session });
}
