import { LIST_PAGE_SIZE } from '@panel247/contract/constants';
import { describe, expect, it } from 'vitest';
import { drawPlan, viewCalls } from './render-page';

const permissions = { servicemail: 'write', service_dnszone: 'read', service_ftp: 'disabled' };
const SET = { id: 7, reference: 'demo.test', hasMail: true, hasService: true, hasDomain: false, permissions };
const boot = (set: unknown = SET) => ({ language: 'es', user: { username: 'admin' }, set: { id: 7, data: set } });

describe('the calls a page is drawn with on the server', () => {
  it('are the mail view’s first page and authentication card, with the view’s own keys', () => {
    expect(viewCalls('/admin/7/mail/', boot())).toEqual([
      {
        queryKey: ['mail', 7, 'pages', { page: 1, type: 'all', filter: '' }],
        path: 'service/7/mail/list/',
        params: { page: 1, pageSize: LIST_PAGE_SIZE, type: 'all', filter: '' },
      },
      { queryKey: ['mail', 7, 'auth'], path: 'service/7/mail/auth/' },
    ]);
    expect(viewCalls('/admin/7/service/dns/', boot()).map((call) => call.path)).toEqual(['service/7/dns/list/']);
  });

  it('are the FTP view’s first page, its server card’s and its SFTP keys’, when the set opens the view', () => {
    const ftpSet = { ...SET, permissions: { ...permissions, service_ftp: 'read' } };
    expect(viewCalls('/admin/7/service/ftp/', boot(ftpSet))).toEqual([
      {
        queryKey: ['ftp', 7, 'pages', { page: 1, filter: '' }],
        path: 'service/7/ftp/list/',
        params: { page: 1, pageSize: LIST_PAGE_SIZE, filter: '' },
      },
      { queryKey: ['ftp', 7, 'main'], path: 'service/7/ftp/main/' },
      { queryKey: ['ftp', 7, 'keys'], path: 'service/7/ftp/keys/' },
    ]);
  });

  it('are the hosting overview’s cards, as the set shows them, with the field of the answer each query holds', () => {
    const sees = (shown: Record<string, string>) =>
      boot({ ...SET, permissions: { service: 'none', service_ftp: 'none', service_redirects: 'none', ...shown } });
    expect(
      viewCalls('/admin/7/service/', sees({ service: 'read', service_ftp: 'read', service_redirects: 'write' })),
    ).toEqual([
      { queryKey: ['hosting', 7, 'service'], path: 'service/7/', field: 'service' },
      { queryKey: ['ftp', 7, 'main'], path: 'service/7/ftp/main/' },
      { queryKey: ['ftp', 7, 'accounts'], path: 'service/7/ftp/list/', field: 'ftps' },
      {
        queryKey: ['hosting', 7, 'redirection-pages', { page: 1, filter: '' }],
        path: 'service/7/redirection/list/',
        params: { page: 1, pageSize: LIST_PAGE_SIZE, filter: '' },
      },
    ]);
    // a card the set hides asks for nothing: FTP without its right, all of the service without its own
    expect(viewCalls('/admin/7/service/', sees({ service: 'read' })).map((call) => call.path)).toEqual(['service/7/']);
    expect(viewCalls('/admin/7/service/', sees({ service_ftp: 'write', service_redirects: 'read' }))).toHaveLength(1);
    expect(drawPlan('/admin/7/service/', sees({ service: 'read' })).calls).toEqual([
      { queryKey: ['hosting', 7, 'service'], path: 'service/7/', query: '', field: 'service' },
    ]);
  });

  it('are the domain view’s domain, and the glue records and DNSSEC entries its DNS card shows', () => {
    const domainSet = (shown: Record<string, string>) =>
      boot({ ...SET, hasDomain: true, permissions: { domain: 'read', ...shown } });
    expect(viewCalls('/admin/7/domain/', domainSet({ domain_gluerecords: 'read', domain_dnssec: 'write' }))).toEqual([
      { queryKey: ['domain', 7, 'data'], path: 'domain/7/' },
      { queryKey: ['domain', 7, 'glue'], path: 'domain/7/gluerecord/list/', field: 'gluerecords' },
      { queryKey: ['domain', 7, 'dnssec'], path: 'domain/7/dnssec/list/', field: 'dnssec' },
    ]);
    expect(viewCalls('/admin/7/domain/', domainSet({ domain_dnssec: 'none' })).map((call) => call.path)).toEqual([
      'domain/7/',
    ]);
    expect(viewCalls('/admin/7/domain/', boot({ ...SET, permissions: { domain: 'read' } }))).toEqual([]);
  });

  it('are the sites’ and the databases’ lists, when the set shows them', () => {
    const serviceSet = boot({ ...SET, permissions: { service_subdomains: 'read', service_ddbb: 'none' } });
    expect(viewCalls('/admin/7/service/subdomain/', serviceSet)).toEqual([
      {
        queryKey: ['hosting', 7, 'subdomain-pages', { page: 1, filter: '' }],
        path: 'service/7/subdomain/list/',
        params: { page: 1, pageSize: LIST_PAGE_SIZE, filter: '' },
      },
    ]);
    expect(viewCalls('/admin/7/service/ddbb/', serviceSet)).toEqual([]);
    expect(viewCalls('/admin/7/service/ddbb/', boot({ ...SET, permissions: { service_ddbb: 'read' } }))).toEqual([
      { queryKey: ['databases', 7, 'list'], path: 'service/7/ddbb/list/' },
    ]);
  });

  it('are none when the set the page carries shuts the view, is another item’s or is missing, or without a user', () => {
    expect(viewCalls('/admin/7/service/ftp/', boot())).toEqual([]);
    expect(viewCalls('/admin/7/mail/', boot({ ...SET, hasMail: false }))).toEqual([]);
    expect(viewCalls('/admin/8/mail/', boot())).toEqual([]);
    expect(viewCalls('/admin/7/mail/', { language: 'es', user: { username: 'admin' } })).toEqual([]);
    expect(viewCalls('/admin/7/mail/', { language: 'es', set: { id: 7, data: SET } })).toEqual([]);
  });

  it('are the file manager’s folder the address names, of the home or of an FTP account', () => {
    const filesSet = boot({ ...SET, permissions: { service_ftp: 'read' } });
    expect(viewCalls('/admin/7/service/files/', filesSet)).toEqual([
      { queryKey: ['files', 7, 0, 'list', ''], path: 'service/7/files/list/', params: { path: '' } },
    ]);
    expect(viewCalls('/admin/7/service/files/?ftp=3&path=www/img', filesSet)).toEqual([
      {
        queryKey: ['files', 7, 3, 'list', 'www/img'],
        path: 'service/7/files/list/',
        params: { ftp: 3, path: 'www/img' },
      },
    ]);
    // a folder the address cannot name is the root, as the view reads it
    expect(viewCalls('/admin/7/service/files/?ftp=x&path=../etc', filesSet)[0]?.params).toEqual({ path: '' });
    expect(drawPlan('/admin/7/service/files/?path=www', filesSet).calls).toEqual([
      { queryKey: ['files', 7, 0, 'list', 'www'], path: 'service/7/files/list/', query: 'path=www' },
    ]);
  });

  it('are the tasks in the page’s language, the statistics’ sites, the spam filter and the item’s log', () => {
    const sees = (granted: Record<string, string>) => boot({ ...SET, permissions: granted });
    expect(viewCalls('/admin/7/service/cron/', { ...sees({ service_cron: 'read' }), language: 'ca' })).toEqual([
      { queryKey: ['cron', 7, 'list', 'ca'], path: 'service/7/cron/list/' },
    ]);
    expect(viewCalls('/admin/7/service/stats/', sees({ service_stats: 'read' }))).toEqual([
      { queryKey: ['stats', 7, 'sites'], path: 'service/7/stats/' },
    ]);
    expect(viewCalls('/admin/7/service/mail/spam/', sees({ servicemail_spam: 'write' }))).toEqual([
      { queryKey: ['mail', 7, 'spam'], path: 'service/7/mail/spam/' },
    ]);
    const filters = { user: '', area: '', from: '', to: '', resource: 7 };
    expect(viewCalls('/admin/7/activity/', sees({}))).toEqual([
      {
        queryKey: ['activity', filters, 1],
        path: 'activity/list/',
        params: { ...filters, page: 1, pageSize: LIST_PAGE_SIZE },
      },
    ]);
    // each shut by its own permission
    for (const path of ['/admin/7/service/cron/', '/admin/7/service/stats/', '/admin/7/service/mail/spam/']) {
      expect(viewCalls(path, sees({ service: 'write', servicemail: 'write' })), path).toEqual([]);
    }
  });

  it('are the account’s log, the preferences’ cards and, for a user who manages users, the users’ pages', () => {
    expect(viewCalls('/admin/activity/', boot()).map((call) => call.path)).toEqual(['activity/list/']);
    expect(viewCalls('/admin/preferences/', boot()).map((call) => call.path)).toEqual([
      'user/twofactor/',
      'user/passkeys/',
      'user/sessions/',
      'user/apitokens/',
    ]);
    const manager = { ...boot(), permissions: { permissions: [], manageUsers: true } };
    expect(viewCalls('/admin/users/', manager)).toEqual([
      {
        queryKey: ['users', 'list', { page: 1, filter: '', sort: 'username', order: 'asc' }],
        path: 'users/list/',
        params: { page: 1, pageSize: LIST_PAGE_SIZE, filter: '', sort: 'username', order: 'asc' },
      },
    ]);
    expect(viewCalls('/admin/users/12/', manager)).toEqual([{ queryKey: ['users', 'detail', 12], path: 'users/12/' }]);
    // not for a user without the right, nor for a page without the list, nor for a bad id
    for (const page of [{ ...boot(), permissions: { permissions: [] } }, boot()]) {
      expect(viewCalls('/admin/users/', page)).toEqual([]);
      expect(viewCalls('/admin/users/12/', page)).toEqual([]);
    }
    expect(viewCalls('/admin/users/twelve/', manager)).toEqual([]);
  });

  it('are none for a view without first data of its own', () => {
    expect(viewCalls('/admin/', boot())).toEqual([]);
    expect(viewCalls('/admin/contact/', boot())).toEqual([]);
  });

  it('are asked only for a screen of the layout: not the console, the invitation page or the root’s redirect', () => {
    expect(drawPlan('/admin/7/mail/', boot()).draws).toBe(true);
    expect(drawPlan('/legal/', boot())).toMatchObject({ draws: true, calls: [] });
    for (const path of ['/console/', '/console/customers/', '/invitation/', '/', '/login/']) {
      expect(drawPlan(path, boot()), path).toEqual({ draws: false, calls: [], modules: [] });
    }
    expect(drawPlan('/admin/7/mail/', { language: 'es' })).toEqual({ draws: false, calls: [], modules: [] });
  });

  it('name the modules the app takes the page over with: the layout’s, the view’s and the language’s texts', () => {
    expect(drawPlan('/admin/7/mail/', boot()).modules).toEqual([
      'src/features/shell/components/app-layout.tsx',
      'src/features/mail/routes/mail-route.tsx',
      'virtual:locale/es-start',
      'virtual:locale/es-areas',
    ]);
    expect(drawPlan('/admin/domain/', { ...boot(), language: 'ca' }).modules).toEqual([
      'src/features/shell/components/app-layout.tsx',
      'src/features/lists/routes/domain-list-route.tsx',
      'virtual:locale/ca-start',
      'virtual:locale/ca-areas',
    ]);
    // an address no view has: the layout's not-found page
    expect(drawPlan('/admin/7/nothing/', boot()).modules).toContain(
      'src/features/not-found/routes/not-found-route.tsx',
    );
  });
});
