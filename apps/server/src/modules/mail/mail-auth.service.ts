import { randomBytes } from 'node:crypto';
import { isActionable, type PermissionLevel } from '@panel247/contract/constants';
import type { DefaultRecord } from '@panel247/contract/dns-default-records';
import type { DkimKey, LookupState, MailAuthData, MailAuthRecord, RotationStep } from '@panel247/contract/mail-auth';
import {
  cleanList,
  composeDmarc,
  composeSpf,
  type DkimAlgorithm,
  type DmarcPolicy,
  type DmarcRecord,
  dkimRecordName,
  dkimRecordValue,
  isDmarcText,
  isSpfText,
  mailAuthPolicyProblems,
  parseDmarc,
  parseSpf,
} from '@panel247/contract/mail-auth-rules';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { DkimDriver } from '../../drivers/dkim/dkim.driver.ts';
import type { TxtLookup } from '../../drivers/dkim/txt-lookup.ts';
import { ConflictError, FieldErrors, ForbiddenError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import { type DkimKeyRow, mailAuthRepository } from './mail-auth.repository.ts';
import { dmarcAnswerProblem, spfAnswerProblem } from './mail-auth-check.ts';

/** What the mail authentication needs of the DNS zone (the DNS service's actor-less calls). */
export interface MailZone {
  /** The hosted zone's records; undefined when the service's zone is not hosted here. */
  recordsForBackup(serviceId: number): Promise<DefaultRecord[] | undefined>;
  replaceOwnedTxt(
    service: { serviceId: number; reference: string; referencePunycode: string },
    zona: string,
    owned: (value: string) => boolean,
    values: string[],
  ): Promise<{ hosted: boolean; published: boolean }>;
}

export interface MailAuthSettings {
  /** How long a replaced key's record stays published. */
  retireSeconds: number;
  /** The provider's SPF include and DMARC report address (a zone elsewhere starts with them). */
  spfInclude: string;
  dmarcReport: string;
  /**
   * The zones here are served by no DNS server (the `database` DNS driver): a hosted zone's record
   * then "resolves" once it is in the zone; resolvers are asked only for zones elsewhere.
   */
  zonesOnlyHere: boolean;
}

interface MailDomain {
  serviceId: number;
  reference: string;
  referencePunycode: string;
}

const isDkim = (value: string) => /^v=DKIM1;/i.test(value.trim());
const isSpf = isSpfText;
const isDmarc = isDmarcText;

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
 */
export class MailAuthService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly zone: MailZone,
    private readonly lookup: TxtLookup,
    private readonly signer: DkimDriver,
    private readonly secrets: SecretBox,
    private readonly settings: MailAuthSettings,
    private readonly now: () => number,
    private readonly generate: (algorithm: DkimAlgorithm) => Promise<{ privateKey: string; publicKey: string }>,
  ) {}

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
    await this.ensureKeys(domain);
    await this.advance(domain);
    await this.republishMissing(domain);
    return this.describe(domain);
  }

  /**
   * A hosted zone whose DKIM record went (restore defaults, delete all, a delete in the DNS view)
   * gets it back: OpenDKIM keeps signing with the key, and receivers would fail every message.
   */
  private async republishMissing(domain: MailDomain): Promise<void> {
    const zoneRecords = await this.zone.recordsForBackup(domain.serviceId);
    if (!zoneRecords) return;
    for (const key of await mailAuthRepository.keys(this.db, domain.serviceId)) {
      const { zona, value } = this.recordOfKey(key);
      if (!zoneRecords.some((record) => record.type === 'TXT' && record.zona === zona && record.value === value)) {
        await this.publishKeys(domain, key.selector);
      }
    }
  }

  /** Starts a rotation: new keys published (not signing yet). One rotation at a time. */
  async rotate(actor: Actor, id: number): Promise<MailAuthData> {
    const { domain, levels } = await this.domainOf(actor, id, 'action');
    await this.checkZoneRight(domain, levels.service_dnszone);
    await this.ensureKeys(domain);
    const keys = await mailAuthRepository.keys(this.db, domain.serviceId);
    if (keys.some((key) => key.state !== 'active')) throw new ConflictError('mail.auth.error.rotating');
    for (const algorithm of this.algorithms()) await this.addKey(domain, algorithm, 'pending');
    await this.advance(domain);
    return this.describe(domain);
  }

  /**
   * The guided form: the SPF include list and the DMARC policy, as records the DNS rules accept.
   * Each record is rewritten only when its own inputs differ from what it says now, so a DMARC
   * change leaves the SPF record as it was, byte for byte (terms the form does not show, such as
   * `ip4:` or a redirect, stay), and the other way round. A list left out of the call (a client
   * that sends only the DMARC fields) is no change; an empty one clears it. Answers which of the
   * two records changed.
   */
  async savePolicy(
    actor: Actor,
    params: { id: number; dmarcPolicy: string; dmarcPct: number; dmarcRua?: string[]; spfIncludes?: string[] },
  ): Promise<{ data: MailAuthData; saved: { spf: boolean; dmarc: boolean } }> {
    const { domain, levels } = await this.domainOf(actor, params.id, 'action');
    const records = await this.checkZoneRight(domain, levels.service_dnszone);
    const now = await this.policyOf(domain, records);
    const wanted = {
      dmarcPolicy: params.dmarcPolicy,
      dmarcPct: params.dmarcPct,
      dmarcRua: params.dmarcRua ?? now.dmarc.rua,
      spfIncludes: params.spfIncludes ?? now.includes,
    };
    const problems = mailAuthPolicyProblems(wanted);
    if (problems.length > 0) throw new FieldErrors(problems);
    const dmarc: DmarcRecord = {
      policy: wanted.dmarcPolicy as DmarcPolicy,
      pct: wanted.dmarcPct,
      rua: cleanList(wanted.dmarcRua),
    };
    const includes = cleanList(wanted.spfIncludes);
    let saved: { spf: boolean; dmarc: boolean };
    if (records) {
      const txt = (zona: string, is: (value: string) => boolean) =>
        records.find((record) => record.type === 'TXT' && record.zona === zona && is(record.value))?.value;
      const spfNow = txt('', isSpf);
      const dmarcNow = txt('_dmarc', isDmarc);
      saved = {
        spf: spfNow === undefined || !sameList(parseSpf(spfNow)?.includes ?? [], includes),
        dmarc: dmarcNow === undefined || !sameDmarc(parseDmarc(dmarcNow), dmarc),
      };
      if (saved.spf) {
        await this.publishAs('spfIncludes', () =>
          this.zone.replaceOwnedTxt(domain, '', isSpf, [composeSpf(includes, spfNow)]),
        );
      }
      if (saved.dmarc) {
        await this.publishAs('dmarcPolicy', () =>
          this.zone.replaceOwnedTxt(domain, '_dmarc', isDmarc, [composeDmarc(dmarc)]),
        );
      }
    } else {
      saved = { spf: !sameList(now.includes, includes), dmarc: !sameDmarc(now.dmarc, dmarc) };
      await mailAuthRepository.savePolicy(this.db, {
        service_id: domain.serviceId,
        spf_includes: includes.join(','),
        dmarc_policy: dmarc.policy,
        dmarc_pct: dmarc.pct,
        dmarc_rua: dmarc.rua.join(','),
        updated_at: this.now(),
      });
    }
    return { data: await this.describe(domain), saved };
  }

  /** A record the DNS rules refuse is the form's field error, not the DNS form's. */
  private async publishAs(field: string, publish: () => Promise<unknown>): Promise<void> {
    try {
      await publish();
    } catch (error) {
      if (error instanceof FieldErrors) {
        throw new FieldErrors(error.fields.map((problem) => ({ ...problem, field })));
      }
      throw error;
    }
  }

  /** Moves every unfinished rotation on (the server's timer); answers how many services moved. */
  async advanceAll(): Promise<number> {
    let moved = 0;
    for (const row of await mailAuthRepository.rotating(this.db)) {
      const domain = { serviceId: row.service_id, reference: row.reference, referencePunycode: row.reference_punycode };
      if (await this.advance(domain)) moved += 1;
    }
    return moved;
  }

  /** Gives the signer exactly the active keys of every mail domain; answers the domains that differed. */
  async syncSigner(options: { dryRun: boolean }): Promise<string[]> {
    const domains = new Map<string, { selector: string; algorithm: DkimAlgorithm; privateKey: string }[]>();
    for (const row of await mailAuthRepository.activeKeys(this.db)) {
      const keys = domains.get(row.domain) ?? [];
      keys.push({
        selector: row.selector,
        algorithm: row.algorithm as DkimAlgorithm,
        privateKey: this.secrets.open(row.private_key),
      });
      domains.set(row.domain, keys);
    }
    return this.signer.sync(domains, options);
  }

  /**
   * RSA 2048, which every receiver checks. Ed25519 (RFC 8463) is known to the data model and the
   * key maker, but Debian 12's OpenDKIM (2.11.0 beta) signs every key of a message with the one
   * `SignatureAlgorithm` it is configured with, so a second Ed25519 signature fails the message:
   * it waits for a signer that picks the algorithm per key.
   */
  private algorithms(): DkimAlgorithm[] {
    return ['rsa'];
  }

  /** A domain's first keys: made, signing at once (there is nothing to switch from), published. */
  private async ensureKeys(domain: MailDomain): Promise<void> {
    const keys = await mailAuthRepository.keys(this.db, domain.serviceId);
    const missing = this.algorithms().filter((algorithm) => !keys.some((key) => key.algorithm === algorithm));
    if (missing.length === 0) return;
    for (const algorithm of missing) await this.addKey(domain, algorithm, 'active');
    // Two first looks at once (two instances, two tabs) each make a key: whoever sees both keeps
    // the older and takes the newer back, record included, so one key per algorithm remains.
    const after = await mailAuthRepository.keys(this.db, domain.serviceId);
    for (const algorithm of missing) {
      const made = after.filter((key) => key.algorithm === algorithm && key.state === 'active');
      for (const extra of made.sort((a, b) => a.id - b.id).slice(1)) {
        await mailAuthRepository.deleteKey(this.db, domain.serviceId, extra.id);
        await this.publishKeys(domain, extra.selector);
      }
    }
    await this.giveSignerKeys(domain);
  }

  private async addKey(domain: MailDomain, algorithm: DkimAlgorithm, state: 'active' | 'pending') {
    const pair = await this.generate(algorithm);
    const now = this.now();
    const row = await mailAuthRepository.insertKey(this.db, {
      service_id: domain.serviceId,
      selector: newSelector(algorithm, now),
      algorithm,
      private_key: this.secrets.seal(pair.privateKey),
      public_key: pair.publicKey,
      state,
      created_at: now,
      activated_at: state === 'active' ? now : null,
      retire_at: null,
    });
    await this.publishKeys(domain, row.selector);
    return row;
  }

  /** The zone's record of one selector, as the keys of the database say (none once the key is gone). */
  private async publishKeys(domain: MailDomain, selector: string): Promise<void> {
    const key = (await mailAuthRepository.keys(this.db, domain.serviceId)).find((row) => row.selector === selector);
    const values = key ? [dkimRecordValue(key.algorithm as DkimAlgorithm, key.public_key)] : [];
    await this.zone.replaceOwnedTxt(domain, dkimRecordName(selector), isDkim, values);
  }

  private async giveSignerKeys(domain: MailDomain): Promise<void> {
    const keys = (await mailAuthRepository.keys(this.db, domain.serviceId)).filter((key) => key.state === 'active');
    await this.signer.setSigningKeys(
      domain.referencePunycode,
      keys.map((key) => ({
        selector: key.selector,
        algorithm: key.algorithm as DkimAlgorithm,
        privateKey: this.secrets.open(key.private_key),
      })),
    );
  }

  /**
   * One look at the rotation: a pending key that resolves starts signing (its predecessor
   * retiring); a retiring key past its time has its record withdrawn and is forgotten. Answers
   * whether anything moved.
   */
  private async advance(domain: MailDomain): Promise<boolean> {
    const keys = await mailAuthRepository.keys(this.db, domain.serviceId);
    const now = this.now();
    let moved = false;
    const zoneRecords = await this.zone.recordsForBackup(domain.serviceId);
    for (const key of keys.filter((row) => row.state === 'pending')) {
      const record = this.recordOfKey(key);
      if ((await this.lookupState(domain, record.zona, record.value, zoneRecords)) !== 'found') continue;
      await this.db
        .transaction()
        .execute((trx) =>
          mailAuthRepository.activate(trx, domain.serviceId, key, now, now + this.settings.retireSeconds),
        );
      moved = true;
    }
    if (moved) await this.giveSignerKeys(domain);
    const after = await mailAuthRepository.keys(this.db, domain.serviceId);
    for (const key of after.filter((row) => row.state === 'retiring' && (row.retire_at ?? 0) <= now)) {
      await mailAuthRepository.deleteKey(this.db, domain.serviceId, key.id);
      await this.publishKeys(domain, key.selector);
      moved = true;
    }
    return moved;
  }

  private recordOfKey(key: DkimKeyRow) {
    return {
      zona: dkimRecordName(key.selector),
      value: dkimRecordValue(key.algorithm as DkimAlgorithm, key.public_key),
    };
  }

  /**
   * What the world sees at a name: the configured resolvers (for a hosted zone too, when a DNS
   * server serves it: what it serves is what receivers read), or the zone itself when no server
   * serves it. Undefined when no answer came.
   */
  private async answerAt(
    domain: MailDomain,
    zona: string,
    zoneRecords: DefaultRecord[] | undefined,
  ): Promise<string[] | undefined> {
    if (zoneRecords && this.settings.zonesOnlyHere) {
      return zoneRecords.filter((record) => record.type === 'TXT' && record.zona === zona).map((r) => r.value);
    }
    return this.lookup.txt(zona === '' ? domain.referencePunycode : `${zona}.${domain.referencePunycode}`);
  }

  private async lookupState(
    domain: MailDomain,
    zona: string,
    value: string,
    zoneRecords: DefaultRecord[] | undefined,
  ): Promise<LookupState> {
    return stateOf(await this.answerAt(domain, zona, zoneRecords), value);
  }

  /**
   * A record as the card shows it: its value, whether the zone here holds it, what the name
   * servers answer, and for SPF and DMARC what receivers would find broken in that answer.
   */
  private async record(
    domain: MailDomain,
    zona: string,
    value: string,
    zoneRecords: DefaultRecord[] | undefined,
    check?: 'spf' | 'dmarc',
  ): Promise<MailAuthRecord> {
    const answer = await this.answerAt(domain, zona, zoneRecords);
    const found =
      answer === undefined || check === undefined
        ? undefined
        : check === 'spf'
          ? await spfAnswerProblem(domain.referencePunycode, answer, this.lookup)
          : dmarcAnswerProblem(answer);
    return {
      zona,
      name: zona === '' ? domain.referencePunycode : `${zona}.${domain.referencePunycode}`,
      type: 'TXT',
      value,
      published: Boolean(
        zoneRecords?.some((record) => record.type === 'TXT' && record.zona === zona && record.value === value),
      ),
      lookup: stateOf(answer, value),
      ...found,
    };
  }

  private async describe(domain: MailDomain): Promise<MailAuthData> {
    const zoneRecords = await this.zone.recordsForBackup(domain.serviceId);
    const keys = await mailAuthRepository.keys(this.db, domain.serviceId);
    const dkimKeys: DkimKey[] = await Promise.all(
      keys.map(async (key) => {
        const { zona, value } = this.recordOfKey(key);
        return {
          selector: key.selector,
          algorithm: key.algorithm as DkimAlgorithm,
          state: key.state as DkimKey['state'],
          createdAt: key.created_at,
          activatedAt: key.activated_at,
          retireAt: key.retire_at,
          record: await this.record(domain, zona, value, zoneRecords),
        };
      }),
    );
    const rotation: RotationStep = keys.some((key) => key.state === 'pending')
      ? 'publishing'
      : keys.some((key) => key.state === 'retiring')
        ? 'withdrawing'
        : 'idle';
    const { spfValue, includes, dmarc } = await this.policyOf(domain, zoneRecords);
    const dmarcValue = zoneRecords
      ? (zoneRecords.find((record) => record.type === 'TXT' && record.zona === '_dmarc' && isDmarc(record.value))
          ?.value ?? composeDmarc(dmarc))
      : composeDmarc(dmarc);
    // the lookups of a zone elsewhere run side by side: one slow resolver costs one timeout
    const [spfRecord, dmarcRecord] = await Promise.all([
      this.record(domain, '', spfValue, zoneRecords, 'spf'),
      this.record(domain, '_dmarc', dmarcValue, zoneRecords, 'dmarc'),
    ]);
    return {
      domain: domain.referencePunycode,
      hosted: zoneRecords !== undefined,
      dkim: { keys: dkimKeys, rotation },
      spf: { includes, record: spfRecord },
      dmarc: { ...dmarc, record: dmarcRecord },
    };
  }

  /**
   * The form's values: a hosted zone's records are their own truth (edited here or in the DNS
   * view); a zone elsewhere has the form's last choices, or the provider's defaults.
   */
  private async policyOf(domain: MailDomain, zoneRecords: DefaultRecord[] | undefined) {
    const defaults: DmarcRecord = { policy: 'none', pct: 100, rua: [this.settings.dmarcReport] };
    if (zoneRecords) {
      const spf = zoneRecords.find((record) => record.type === 'TXT' && record.zona === '' && isSpf(record.value));
      const dmarcText = zoneRecords.find((record) => record.type === 'TXT' && record.zona === '_dmarc')?.value;
      const spfValue = spf?.value ?? composeSpf([this.settings.spfInclude]);
      return {
        spfValue,
        includes: parseSpf(spfValue)?.includes ?? [],
        dmarc: (dmarcText && parseDmarc(dmarcText)) || defaults,
      };
    }
    const saved = await mailAuthRepository.policy(this.db, domain.serviceId);
    const includes = saved ? saved.spf_includes.split(',').filter(Boolean) : [this.settings.spfInclude];
    const dmarc: DmarcRecord = saved
      ? {
          policy: saved.dmarc_policy as DmarcPolicy,
          pct: saved.dmarc_pct,
          rua: saved.dmarc_rua.split(',').filter(Boolean),
        }
      : defaults;
    return { spfValue: composeSpf(includes), includes, dmarc };
  }
}

/** `rsa20261126a3f0`: the algorithm, the day it was made and a random suffix (one DNS label). */
function newSelector(algorithm: DkimAlgorithm, now: number): string {
  const day = new Date(now * 1000).toISOString().slice(0, 10).replaceAll('-', '');
  return `${algorithm === 'rsa' ? 'rsa' : 'ed'}${day}${randomBytes(2).toString('hex')}`;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** Whether a published DMARC record (undefined: unreadable) already says what the form asks. */
function sameDmarc(published: DmarcRecord | undefined, wanted: DmarcRecord): boolean {
  return (
    published !== undefined &&
    published.policy === wanted.policy &&
    published.pct === wanted.pct &&
    sameList(published.rua, wanted.rua)
  );
}

/**
 * `found` (this very value among the answers), `different` (a record of its kind with another
 * value), `missing` (none of its kind), `unknown` (no answer).
 */
function stateOf(answer: string[] | undefined, value: string): LookupState {
  if (answer === undefined) return 'unknown';
  const wanted = normalize(value);
  if (answer.some((text) => normalize(text) === wanted)) return 'found';
  const kind = (text: string) => (isDkim(text) ? 'dkim' : isSpf(text) ? 'spf' : isDmarc(text) ? 'dmarc' : 'other');
  return answer.some((text) => kind(text) === kind(value)) ? 'different' : 'missing';
}

/** TXT text compared as receivers read it: spaces around `;` and `=` do not matter. */
function normalize(text: string): string {
  return text
    .replace(/\s*([;=])\s*/g, '$1')
    .replace(/;$/, '')
    .trim();
}
