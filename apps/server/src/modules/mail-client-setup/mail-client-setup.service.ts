import { type Db, nowSeconds } from '../../db/database.ts';
import { NotFoundError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { connectionHosts, type MailClientPorts } from '../mail/connection-hosts.ts';
import { PlacementService } from '../nodes/placement.service.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import { autoconfigXml } from './autoconfig-document.ts';
import { AUTODISCOVER_RESPONSE_SCHEMA, autodiscoverXml, readAutodiscoverRequest } from './autodiscover-document.ts';
import {
  clientSettings,
  domainOfSetupHost,
  type MailClientSettings,
  parseClientAddress,
} from './mail-client-settings.ts';
import { mailClientSetupRepository } from './mail-client-setup.repository.ts';
import { mobileconfigXml } from './mobileconfig-document.ts';

/** A request that is not one: answered 400 without saying more. */
export class BadSetupRequest extends Error {}

/**
 * The documents mail clients set themselves up from, with the hosts and ports of the mail view's
 * connection data (`connectionHosts`). Thunderbird and Outlook ask without a session: they are
 * answered only for mail domains hosted here (anything else is a 404, like a domain never heard
 * of), and the same for every address of a domain, so no answer tells whether a mailbox exists.
 * A hosted mail domain is public anyway: its MX record names the provider.
 */
export class MailClientSetupService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly brands: BrandService,
    private readonly ports: MailClientPorts,
  ) {}

  private async hostedDomain(domain: string): Promise<MailClientSettings> {
    const row = await mailClientSetupRepository.mailDomain(this.db, domain);
    if (!row) throw new NotFoundError();
    const servers = await new PlacementService(this.db, nowSeconds).serversOf(row.serviceId);
    return clientSettings(domain, row.company, connectionHosts(domain, row.sslHost, this.ports, servers));
  }

  /**
   * Thunderbird's config-v1.1.xml. It sends `emailaddress`; without it the domain comes from the
   * host it asked (`autoconfig.<domain>` or the domain's own `/.well-known/`).
   */
  async autoconfig(emailaddress: string | undefined, host: string | undefined): Promise<string> {
    let domain: string | undefined;
    if (emailaddress !== undefined) {
      domain = parseClientAddress(emailaddress)?.domain;
      if (!domain) throw new BadSetupRequest();
    } else {
      domain = host ? domainOfSetupHost(host.toLowerCase()) : undefined;
      if (!domain) throw new NotFoundError();
    }
    return autoconfigXml(await this.hostedDomain(domain));
  }

  /** Outlook's POX autodiscover: the request's address, for the Outlook response schema only. */
  async autodiscover(body: string): Promise<string> {
    const request = readAutodiscoverRequest(body);
    const address = request && parseClientAddress(request.email);
    if (!request || !address) throw new BadSetupRequest();
    // ActiveSync (mobilesync) clients ask for another schema: there is no such server here.
    if (request.schema !== undefined && request.schema !== AUTODISCOVER_RESPONSE_SCHEMA) throw new NotFoundError();
    return autodiscoverXml(await this.hostedDomain(address.domain), address.address);
  }

  /**
   * A mailbox's .mobileconfig for Apple devices, for who may read the mailboxes (as opening one in
   * WebMail); the hosts are the connection data this user's dialog shows. No password in it.
   */
  async mobileconfig(actor: Actor, serviceId: number, mailboxId: number): Promise<{ fileName: string; body: string }> {
    const service = await this.permissions.authorize(actor, serviceId, 'servicemail_accounts', 'visible');
    if (service.levels.servicemail === 'disabled') throw new NotFoundError();
    const mailbox = await mailClientSetupRepository.mailbox(this.db, serviceId, mailboxId);
    if (!mailbox) throw new NotFoundError();
    const domain = service.referencePunycode;
    const brand = await this.brands.byId(actor.brandId);
    const servers = await new PlacementService(this.db, nowSeconds).serversOf(serviceId);
    const settings = clientSettings(domain, brand.company, connectionHosts(domain, brand.sslHost, this.ports, servers));
    const address = `${mailbox.local_part}@${domain}`;
    return { fileName: `${address}.mobileconfig`, body: mobileconfigXml(settings, address) };
  }
}
