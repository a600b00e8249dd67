import type { AppConfig } from '../../config.ts';
import { generateDkimKey } from '../../crypto/dkim-keys.ts';
import type { Db } from '../../db/database.ts';
import { DnsTxtLookup, type TxtLookup } from '../../drivers/dkim/txt-lookup.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { type DkimKeysDelivery, dkimKeyBox } from './dkim-signing.ts';
import { MailAuthService, type MailZone } from './mail-auth.service.ts';

/** The mail authentication as configured (the server and the CLI). */
export function createMailAuthService(
  db: Db,
  config: AppConfig,
  deps: {
    zone: MailZone;
    zonesOnlyHere: boolean;
    /** How a domain's keys reach the signer: a job for the mail node (the panel), or given here. */
    signing: DkimKeysDelivery;
    secretKey: Buffer;
    lookup?: TxtLookup;
    permissions?: PermissionService;
  },
  now: () => number,
): MailAuthService {
  return new MailAuthService(
    db,
    deps.permissions ?? new PermissionService(db),
    deps.zone,
    deps.lookup ?? new DnsTxtLookup(config.registry.resolvers),
    deps.signing,
    dkimKeyBox(deps.secretKey),
    {
      retireSeconds: config.mail.dkimRetireSeconds,
      spfInclude: config.dns.spfInclude,
      dmarcReport: config.dns.dmarcReport,
      zonesOnlyHere: deps.zonesOnlyHere,
    },
    now,
    generateDkimKey,
  );
}
