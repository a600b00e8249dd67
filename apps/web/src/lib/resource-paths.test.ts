// @vitest-environment node
import { filesPagePath } from '@panel247/contract/files';
import { describe, expect, it } from 'vitest';
import { browserLanguage, readLanguageCookie } from './language';
import { itemIdFromPath, loginRedirectPath, parseId, pathByFlags, paths } from './resource-paths';

const none = { hasDomain: false, hasService: false, hasMail: false };

describe('navigation rules', () => {
  // the contract's copy (zod's module, kept out of the login route) is where the WebFTP sends
  it('opens the file manager where the server sends the WebFTP, with its root and folder', () => {
    expect(paths.serviceFiles(4)).toBe(filesPagePath(4));
    expect(paths.serviceFiles(4, { ftp: 3, path: 'web/a b' })).toBe('/admin/4/service/files/?ftp=3&path=web%2Fa+b');
    expect(paths.serviceFiles(4, { ftp: null, path: '' })).toBe('/admin/4/service/files/');
  });

  it('a list row goes to domain, else service, else mail, else the dashboard', () => {
    expect(pathByFlags({ id: 3, hasDomain: true, hasService: true, hasMail: true })).toBe('/admin/3/domain/');
    expect(pathByFlags({ id: 3, hasDomain: false, hasService: true, hasMail: true })).toBe('/admin/3/service/');
    expect(pathByFlags({ id: 3, hasDomain: false, hasService: false, hasMail: true })).toBe('/admin/3/mail/');
    expect(pathByFlags({ id: 3, ...none })).toBe('/admin/');
  });

  it('after login: first allowed area domain, service, mail, DNS zone, else dashboard', () => {
    const all = { hasDomain: true, hasService: true, hasMail: true };
    expect(loginRedirectPath(1, { ...all, permissions: { domain: 'read', service: 'write' } })).toBe(
      '/admin/1/domain/',
    );
    expect(loginRedirectPath(1, { ...all, permissions: { domain: 'disabled', service: 'read' } })).toBe(
      '/admin/1/service/',
    );
    expect(loginRedirectPath(1, { ...all, permissions: { servicemail: 'write' } })).toBe('/admin/1/mail/');
    expect(loginRedirectPath(1, { ...all, permissions: { service_dnszone: 'read' } })).toBe('/admin/1/service/dns/');
    expect(loginRedirectPath(1, { ...all, permissions: {} })).toBe('/admin/');
    expect(loginRedirectPath(1, { ...none, permissions: { domain: 'write' } })).toBe('/admin/');
  });

  it('reads the item id of /admin/{id}/ routes', () => {
    expect(itemIdFromPath('/admin/12/service/ftp/')).toBe(12);
    expect(itemIdFromPath('/admin/domain/')).toBeNull();
    expect(itemIdFromPath('/admin/')).toBeNull();
    // as the views' gates read it: the frame loads no item a view would refuse
    expect(itemIdFromPath('/admin/012/domain/')).toBeNull();
  });
});

describe('ids in addresses', () => {
  it('takes a positive integer written plainly, and nothing else', () => {
    expect(parseId('42')).toBe(42);
    for (const text of ['0', '-1', '01', '1.5', '1e3', ' 7', '0x10', '', 'abc', '9007199254740993', null, undefined]) {
      expect(parseId(text), String(text)).toBeNull();
    }
  });
});

describe('language', () => {
  it('reads the _lang cookie and ignores unsupported values', () => {
    expect(readLanguageCookie('a=1; _lang=en; b=2')).toBe('en');
    expect(readLanguageCookie('_lang=fr')).toBeNull();
    expect(readLanguageCookie('')).toBeNull();
  });

  it('takes the first supported browser language', () => {
    expect(browserLanguage(['fr-FR', 'ca-ES', 'en'])).toBe('ca');
    expect(browserLanguage(['de'])).toBeNull();
  });
});
