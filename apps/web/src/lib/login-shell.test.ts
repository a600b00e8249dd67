import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LOCAL_SETTINGS_KEY } from '@panel247/contract/constants';
import { describe, expect, it } from 'vitest';
import { SHELL_TEXT_KEYS, shellTexts } from '../../shell-plugin';
import type { LocaleTree } from './locale-parts';
import { buildTheme } from './theme';

const WEB = path.resolve(import.meta.dirname, '../..');
const shell = readFileSync(path.join(WEB, 'shell/login-shell.html'), 'utf8');
const locale = (language: string) =>
  JSON.parse(readFileSync(path.join(WEB, 'src/locales', `${language}.json`), 'utf8')) as LocaleTree;

/** The login page's HTML frame repeats a few things of the app; these keep them the same. */
describe('the login page’s HTML frame', () => {
  it('uses the theme’s font and the app’s local-settings key', () => {
    expect(shell).toContain(`--bs-font: ${buildTheme('indigo').fontFamily};`);
    expect(shell).toContain(`localStorage.getItem('${LOCAL_SETTINGS_KEY}')`);
  });

  it('has a field for each of its texts', () => {
    for (const name of ['title', 'domain', 'user', 'password', 'loading', 'company', 'logo', 'captcha', 'year']) {
      expect(shell).toContain(`{{${name}}}`);
    }
  });

  it('gets its texts in every language, Catalan completed from Spanish', () => {
    const es = locale('es');
    const ca = locale('ca');
    const login = ca.login as LocaleTree;
    const { title: _dropped, ...rest } = login;
    const texts = shellTexts({ es, en: locale('en'), ca: { ...ca, login: rest } });
    for (const language of ['es', 'en', 'ca']) expect(Object.keys(texts[language] ?? {})).toEqual([...SHELL_TEXT_KEYS]);
    expect(texts.en?.['login.title']).toBe('Sign in to your control panel');
    expect(texts.ca?.['login.title']).toBe(texts.es?.['login.title']);
    expect(texts.ca?.['login.domain']).toBe(login.domain);
  });
});
