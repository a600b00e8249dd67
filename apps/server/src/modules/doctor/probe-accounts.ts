import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { loadSecretKey } from '../../secret-key.ts';
import type { AdminService } from '../admin/admin.service.ts';
import { BrandService } from '../brand/brand.service.ts';
import { createFtpService } from '../ftp/create-ftp-service.ts';
import { createHostingService } from '../hosting/create-hosting-service.ts';
import { createMailNode, mailChanges } from '../mail/create-mail-service.ts';
import { MailboxProvisioning } from '../mail/mailbox-provisioning.ts';

/** The logins doctor's customer probes use (PANEL_DOCTOR_*), all four set. */
export interface ProbeLogins {
  mailLogin: string;
  mailPassword: string;
  ftpLogin: string;
  ftpPassword: string;
}

export interface ProbeDeps {
  admin: AdminService;
  db: Db;
  config: AppConfig;
  now: () => number;
}

/** What one part of the probe service was: made now, repaired (its password set again), or as it should be. */
export type ProbePartState = 'made' | 'repaired' | 'kept';

export interface ProbePart {
  part: 'account' | 'service' | 'site' | 'mailbox' | 'ftp account';
  name: string;
  state: ProbePartState;
}

/** The four PANEL_DOCTOR_* logins, or what is missing or wrong with them. */
export function probeLoginsOf(config: AppConfig): ProbeLogins | string {
  const { mailLogin, mailPassword, ftpLogin, ftpPassword } = config.doctor;
  const missing = Object.entries({
    PANEL_DOCTOR_MAIL_LOGIN: mailLogin,
    PANEL_DOCTOR_MAIL_PASSWORD: mailPassword,
    PANEL_DOCTOR_FTP_LOGIN: ftpLogin,
    PANEL_DOCTOR_FTP_PASSWORD: ftpPassword,
  })
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length > 0) return `set ${missing.join(', ')} first (docs/OPERATIONS.md, "Health and drift")`;
  const logins = { mailLogin, mailPassword, ftpLogin, ftpPassword } as ProbeLogins;
  if (probeDomain(logins.mailLogin) !== probeDomain(logins.ftpLogin))
    return 'PANEL_DOCTOR_MAIL_LOGIN and PANEL_DOCTOR_FTP_LOGIN must be of one domain: the probe service they belong to';
  if (!/^[a-z0-9.-]+\.[a-z]{2,}$/.test(probeDomain(logins.mailLogin)))
    return `PANEL_DOCTOR_MAIL_LOGIN: ${logins.mailLogin} is not local@domain, in lower case`;
  return logins;
}

/** The domain of a login `local@domain`: the probe service's name. */
function probeDomain(login: string): string {
  return login.slice(login.lastIndexOf('@') + 1);
}

/**
 * The provider's own service that doctor probes as a customer would, made from the PANEL_DOCTOR_*
 * logins in the default brand: an account and a resource named after the logins' domain, with
 * hosting (its main site served with the default PHP version, so the PHP page probe has a site
 * from the first day) and a DNS zone (for the DNS answer probe), the mailbox and the FTP account
 * on the whole home. Re-running repairs a password that no longer matches and changes nothing else.
 */
export async function ensureProbeService(deps: ProbeDeps, logins: ProbeLogins): Promise<ProbePart[]> {
  const { admin, db, config, now } = deps;
  const domain = probeDomain(logins.mailLogin);
  const parts: ProbePart[] = [];
  const brand = (await admin.listBrands()).find((row) => row.is_default === 1);
  if (!brand) throw new Error('no default brand: make one with `panel brand add … --default` first');
  const exists = (lookup: Promise<number>) =>
    lookup.then(
      () => true,
      () => false,
    );
  const accountExisted = await exists(admin.accountId(domain));
  await admin.ensureAccount(domain, brand.slug, 'Panel247 doctor');
  parts.push({ part: 'account', name: domain, state: accountExisted ? 'kept' : 'made' });
  const serviceExisted = await exists(admin.resourceId(domain));
  // its DNS zone (for the DNS answer probe), system user and home are made with it (the CLI's serviceReady)
  const id = await admin.ensureResource(domain, { reference: domain, hasService: true, hasMail: true });
  parts.push({ part: 'service', name: domain, state: serviceExisted ? 'kept' : 'made' });

  const secretKey = loadSecretKey(config);
  const brands = new BrandService(db);
  const hosting = createHostingService(db, config, brands, secretKey, now);
  try {
    const siteMade = await hosting.changes.ensure(db, id);
    // only rows until a change: the web server gets the site now, as a customer's first change does
    if (siteMade) await hosting.changes.provision({ id, domain });
    parts.push({ part: 'site', name: domain, state: siteMade ? 'made' : 'kept' });
  } finally {
    await hosting.close();
  }
  const mailboxes = new MailboxProvisioning(db, mailChanges(db, createMailNode(db, config, now), now), now);
  const mailbox = await mailboxes.ensure(id, domain, {
    localPart: logins.mailLogin.slice(0, logins.mailLogin.lastIndexOf('@')),
    password: logins.mailPassword,
    quotaMb: config.mail.defaultQuotaMb,
  });
  parts.push({ part: 'mailbox', name: logins.mailLogin, state: mailbox });
  const ftp = createFtpService(db, config, brands, secretKey, now);
  const account = await ftp.ensureAccount(id, domain, logins.ftpLogin, logins.ftpPassword);
  parts.push({ part: 'ftp account', name: logins.ftpLogin, state: account });
  return parts;
}
