import { isVisible, type PermissionKey, type PermissionLevel } from '@panel247/contract/constants';

type Flags = { id: number; hasDomain: boolean; hasService: boolean; hasMail: boolean };

export const paths = {
  login: '/login/',
  dashboard: '/admin/',
  preferences: '/admin/preferences/',
  contact: '/admin/contact/',
  activity: '/admin/activity/',
  /** The account's users, for those who may manage them; one user's permissions and access. */
  users: '/admin/users/',
  user: (id: number) => `/admin/users/${id}/`,
  /** An invited user sets their password here; the token travels in the fragment (`#token`). */
  invitation: '/invitation/',
  legal: '/legal/',
  domainList: '/admin/domain/',
  serviceList: '/admin/service/',
  mailList: '/admin/mail/',
  domain: (id: number) => `/admin/${id}/domain/`,
  service: (id: number) => `/admin/${id}/service/`,
  serviceFtp: (id: number) => `/admin/${id}/service/ftp/`,
  serviceSites: (id: number) => `/admin/${id}/service/subdomain/`,
  serviceDatabases: (id: number) => `/admin/${id}/service/ddbb/`,
  serviceDns: (id: number) => `/admin/${id}/service/dns/`,
  serviceBackups: (id: number) => `/admin/${id}/service/backups/`,
  serviceCron: (id: number) => `/admin/${id}/service/cron/`,
  serviceStats: (id: number) => `/admin/${id}/service/stats/`,
  /** The file manager: the service's home, or an FTP account's folder (`ftp`); `path` inside it. */
  serviceFiles: (id: number, at: { ftp?: number | null; path?: string } = {}) => {
    const query = new URLSearchParams();
    if (at.ftp) query.set('ftp', String(at.ftp));
    if (at.path) query.set('path', at.path);
    const search = query.toString();
    return `/admin/${id}/service/files/${search ? `?${search}` : ''}`;
  },
  mail: (id: number) => `/admin/${id}/mail/`,
  mailSpam: (id: number) => `/admin/${id}/service/mail/spam/`,
  itemActivity: (id: number) => `/admin/${id}/activity/`,
} as const;

export { itemIdFromPath, parseId } from '@panel247/contract/item-path';

/** A list row goes to the domain view, else service, else mail, by the first flag (spec section 2). */
export function pathByFlags(entry: Flags): string {
  if (entry.hasDomain) return paths.domain(entry.id);
  if (entry.hasService) return paths.service(entry.id);
  if (entry.hasMail) return paths.mail(entry.id);
  return paths.dashboard;
}

/** After login: the first allowed area — domain, service, mail, DNS zone — else the dashboard. */
export function loginRedirectPath(
  id: number,
  set: {
    permissions: Partial<Record<PermissionKey, PermissionLevel>>;
    hasDomain: boolean;
    hasService: boolean;
    hasMail: boolean;
  },
): string {
  const p = set.permissions;
  if (set.hasDomain && isVisible(p.domain)) return paths.domain(id);
  if (set.hasService && isVisible(p.service)) return paths.service(id);
  if (set.hasMail && isVisible(p.servicemail)) return paths.mail(id);
  if (set.hasService && isVisible(p.service_dnszone)) return paths.serviceDns(id);
  return paths.dashboard;
}
