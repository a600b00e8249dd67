/**
 * Which site a request's host belongs to, as the web driver names the sites' server blocks: a
 * site answers at its subdomain of the service's domain, and the main site also at `www.` when
 * no site or redirection has that name. Hosts of redirections and of the parking page are no
 * site's.
 */
export function siteOfHost(
  domain: string,
  siteSubdomains: string[],
  redirectionSubdomains: string[],
): (host: string) => string | undefined {
  const hostOf = (subdomain: string) => (subdomain === '' ? domain : `${subdomain}.${domain}`);
  const sites = new Map<string, string>();
  for (const subdomain of siteSubdomains) sites.set(hostOf(subdomain), hostOf(subdomain));
  const wwwTaken = siteSubdomains.includes('www') || redirectionSubdomains.includes('www');
  if (siteSubdomains.includes('') && !wwwTaken) sites.set(`www.${domain}`, domain);
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
