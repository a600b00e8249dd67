import type { Page } from 'playwright-core';

export const ADMIN = { domain: 'demo.test', user: 'admin', password: 'panel247-demo' } as const;
export const VIEWER = { domain: 'demo.test', user: 'viewer', password: 'panel247-view' } as const;

export interface Credentials {
  domain: string;
  user: string;
  password: string;
}

/** Fills the login form by its visible labels (any supported language). */
export async function fillLogin(page: Page, credentials: Credentials, scope = page.locator('body')): Promise<void> {
  await scope.getByLabel(/^(Dominio|Domain|Domini)/).fill(credentials.domain);
  await scope.getByLabel(/^(Usuario|User|Usuari)/).fill(credentials.user);
  await scope.getByLabel(/^(Contraseña|Password|Contrasenya)/).fill(credentials.password);
}

/** Logs in through the login page of a server running with PANEL_CAPTCHA=none. */
export async function loginNoCaptcha(page: Page, baseUrl: string, credentials: Credentials = ADMIN): Promise<void> {
  await page.goto(`${baseUrl}/login/`);
  await fillLogin(page, credentials);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname.startsWith('/admin/'), { timeout: 20_000 });
}
