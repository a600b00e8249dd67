import { siteHostNames, wwwTaken } from '../../drivers/web/web-render.ts';

/**
 * Which site a request's host belongs to, by the names the web driver gives the sites' server
 * blocks (`siteHostNames`: the main site also answers at `www.` unless a site or redirection has
 * that name). Hosts of redirections and of the parking page are no site's.
 */
export function siteOfHost(
  domain: string,
  siteSubdomains: string[],
  redirectionSubdomains: string[],
): (host: string) => string | undefined {
  const www = wwwTaken({
    sites: siteSubdomains.map((subdomain) => ({ subdomain })),
    redirections: redirectionSubdomains.map((subdomain) => ({ subdomain })),
  });
  const sites = new Map<string, string>();
  for (const subdomain of siteSubdomains) {
    const [own, ...others] = siteHostNames(subdomain, domain, www) as [string, ...string[]];
    for (const name of [own, ...others]) sites.set(name, own);
  }
  return (host) => sites.get(host);
}

const MONTHS: Record<string, string> = {
  Jan: '01',
  Feb: '02',
  Mar: '03',
  Apr: '04',
  May: '05',
  Jun: '06',
  Jul: '07',
  Aug: '08',
  Sep: '09',
  Oct: '10',
  Nov: '11',
  Dec: '12',
};

/** `$host $remote_addr - $remote_user [dd/Mon/yyyy:…` : the host and the month (YYYY-MM) of a line of `panel247_vhost`. */
const LINE = /^(\S+) \S+ \S+ \S+ \[\d{2}\/([A-Z][a-z]{2})\/(\d{4}):/;

export function hostAndMonth(line: string): { host: string; month: string } | null {
  const match = LINE.exec(line);
  const month = match && MONTHS[match[2] as string];
  if (!match || !month) return null;
  return { host: (match[1] as string).toLowerCase(), month: `${match[3]}-${month}` };
}
