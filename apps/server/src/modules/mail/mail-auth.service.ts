import { isActionable, type PermissionLevel } from '@panel247/contract/constants';
import type { DefaultRecord } from '@panel247/contract/dns-default-records';
import type { DkimKey, MailAuthData, RotationStep } from '@panel247/contract/mail-auth';
import { composeDmarc, type DkimAlgorithm } from '@panel247/contract/mail-auth-rules';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { TxtLookup } from '../../drivers/dkim/txt-lookup.ts';
import { ForbiddenError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import type { DkimKeysDelivery } from './dkim-signing.ts';
import { mailAuthRepository } from './mail-auth.repository.ts';
import { isDmarc, type MailAuthSettings, type MailDomain, type MailZone } from './mail-auth-domain.ts';
import { MailRecordLookup } from './mail-auth-lookup.ts';
import { MailAuthPolicy, type MailAuthPolicyParams } from './mail-auth-policy.ts';
import { DkimKeys, dkimRecordOf } from './mail-dkim-keys.ts';

export type { MailAuthSettings, MailZone } from './mail-auth-domain.ts';

/**
 * DKIM, SPF and DMARC of a service's mail domain. Each domain gets its DKIM key (RSA 2048) at
 * its first look, sealed at rest; the signer (the DKIM driver) gets
 * the active keys in the clear. A hosted zone gets the public key as `selector._domainkey` TXT at
 * once; for a zone elsewhere the view shows the record to publish there and whether the
 * configured resolvers find it.
 *
 * A rotation is one action and three steps the customer sees: the new selector is published
 * (`pending`); once it resolves, signing switches to it and the old key starts `retiring`; after
 * `retireSeconds` the old record is withdrawn and the key forgotten. The steps advance on every
 * look at the view and on the server's timer (`advanceAll`).
 *
 * The keys (`DkimKeys`), the SPF and DMARC policy (`MailAuthPolicy`) and what resolvers answer
 * (`MailRecordLookup`) are modules of their own; this class guards them and describes the view.
 */
export class MailAuthService {
  private readonly keys: DkimKeys;
  private readonly policy: MailAuthPolicy;
  private readonly lookup: MailRecordLookup;

  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly zone: MailZone,
    lookup: TxtLookup,
    signing: DkimKeysDelivery,
    secrets: SecretBox,
    settings: MailAuthSettings,
    now: () => number,
    generate: (algorithm: DkimAlgorithm) => Promise<{ privateKey: string; publicKey: string }>,
  ) {
    this.lookup = new MailRecordLookup(lookup, settings);
    this.keys = new DkimKeys(db, zone, this.lookup, signing, secrets, settings, now, generate);
    this.policy = new MailAuthPolicy(db, zone, settings, now);
  }

  private async domainOf(actor: Actor, id: number, need: 'visible' | 'action') {
    const resource = await this.permissions.authorize(actor, id, 'servicemail', need);
    const domain: MailDomain = {
      serviceId: id,
      reference: resource.reference,
      referencePunycode: resource.referencePunycode,
    };
    return { domain, levels: resource.levels };
  }

  /** A change that touches a hosted zone also needs the right to change the zone. */
  private async checkZoneRight(domain: MailDomain, level: PermissionLevel): Promise<DefaultRecord[] | undefined> {
    const records = await this.zone.recordsForBackup(domain.serviceId);
    if (records && !isActionable(level)) throw new ForbiddenError();
    return records;
  }

  async view(actor: Actor, id: number): Promise<MailAuthData> {
    const { domain } = await this.domainOf(actor, id, 'visible');
    await this.keys.ensureKeys(domain);
    await this.keys.advance(domain);
    await this.keys.republishMissing(domain);
    return this.describe(domain);
  }

  /** Starts a rotation (`DkimKeys.startRotation`): new keys published (not signing yet). One rotation at a time. */
  async rotate(actor: Actor, id: number): Promise<MailAuthData> {
    const { domain, levels } = await this.domainOf(actor, id, 'action');
    await this.checkZoneRight(domain, levels.service_dnszone);
    await this.keys.startRotation(domain);
    return this.describe(domain);
  }

  /** The guided form (`MailAuthPolicy.save`); answers the view and which of the two records changed. */
  async savePolicy(
    actor: Actor,
    params: { id: number } & MailAuthPolicyParams,
  ): Promise<{ data: MailAuthData; saved: { spf: boolean; dmarc: boolean } }> {
    const { domain, levels } = await this.domainOf(actor, params.id, 'action');
    const records = await this.checkZoneRight(domain, levels.service_dnszone);
    const saved = await this.policy.save(domain, records, params);
    return { data: await this.describe(domain), saved };
  }

  /** Moves every unfinished rotation on (the server's timer); answers how many services moved. */
  advanceAll(): Promise<number> {
    return this.keys.advanceAll();
  }

  private async describe(domain: MailDomain): Promise<MailAuthData> {
    const zoneRecords = await this.zone.recordsForBackup(domain.serviceId);
    const keys = await mailAuthRepository.keys(this.db, domain.serviceId);
    const dkimKeys: DkimKey[] = await Promise.all(
      keys.map(async (key) => {
        const { zona, value } = dkimRecordOf(key);
        return {
          selector: key.selector,
          algorithm: key.algorithm as DkimAlgorithm,
          state: key.state as DkimKey['state'],
          createdAt: key.created_at,
          activatedAt: key.activated_at,
          retireAt: key.retire_at,
          record: await this.lookup.record(domain, zona, value, zoneRecords),
        };
      }),
    );
    const rotation: RotationStep = keys.some((key) => key.state === 'pending')
      ? 'publishing'
      : keys.some((key) => key.state === 'retiring')
        ? 'withdrawing'
        : 'idle';
    const { spfValue, includes, dmarc } = await this.policy.policyOf(domain, zoneRecords);
    const dmarcValue = zoneRecords
      ? (zoneRecords.find((record) => record.type === 'TXT' && record.zona === '_dmarc' && isDmarc(record.value))
          ?.value ?? composeDmarc(dmarc))
      : composeDmarc(dmarc);
    // the lookups of a zone elsewhere run side by side: one slow resolver costs one timeout
    const [spfRecord, dmarcRecord] = await Promise.all([
      this.lookup.record(domain, '', spfValue, zoneRecords, 'spf'),
      this.lookup.record(domain, '_dmarc', dmarcValue, zoneRecords, 'dmarc'),
    ]);
    return {
      domain: domain.referencePunycode,
      hosted: zoneRecords !== undefined,
      dkim: { keys: dkimKeys, rotation },
      spf: { includes, record: spfRecord },
      dmarc: { ...dmarc, record: dmarcRecord },
    };
  }
}
