import type { DefaultRecord } from '@panel247/contract/dns-default-records';
import {
  cleanList,
  composeDmarc,
  composeSpf,
  type DmarcPolicy,
  type DmarcRecord,
  mailAuthPolicyProblems,
  parseDmarc,
  parseSpf,
} from '@panel247/contract/mail-auth-rules';
import type { Db } from '../../db/database.ts';
import { FieldErrors } from '../../errors.ts';
import { mailAuthRepository } from './mail-auth.repository.ts';
import { isDmarc, isSpf, type MailDomain, type MailZone } from './mail-auth-domain.ts';

/** The guided form's fields: the SPF include list and the DMARC policy. */
export interface MailAuthPolicyParams {
  dmarcPolicy: string;
  dmarcPct: number;
  dmarcRua?: string[];
  spfIncludes?: string[];
}

/** A mail domain's SPF and DMARC policy: in its hosted zone's records, or kept here for a zone elsewhere. */
export class MailAuthPolicy {
  constructor(
    private readonly db: Db,
    private readonly zone: MailZone,
    private readonly settings: { spfInclude: string; dmarcReport: string },
    private readonly now: () => number,
  ) {}

  /**
   * The guided form: the SPF include list and the DMARC policy, as records the DNS rules accept.
   * Each record is rewritten only when its own inputs differ from what it says now, so a DMARC
   * change leaves the SPF record as it was, byte for byte (terms the form does not show, such as
   * `ip4:` or a redirect, stay), and the other way round. A list left out of the call (a client
   * that sends only the DMARC fields) is no change; an empty one clears it. Answers which of the
   * two records changed.
   */
  async save(
    domain: MailDomain,
    records: DefaultRecord[] | undefined,
    params: MailAuthPolicyParams,
  ): Promise<{ spf: boolean; dmarc: boolean }> {
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
        await publishAs('spfIncludes', () =>
          this.zone.replaceOwnedTxt(domain, '', isSpf, [composeSpf(includes, spfNow)]),
        );
      }
      if (saved.dmarc) {
        await publishAs('dmarcPolicy', () =>
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
    return saved;
  }

  /**
   * The form's values: a hosted zone's records are their own truth (edited here or in the DNS
   * view); a zone elsewhere has the form's last choices, or the provider's defaults.
   */
  async policyOf(domain: MailDomain, zoneRecords: DefaultRecord[] | undefined) {
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

/** A record the DNS rules refuse is the form's field error, not the DNS form's. */
async function publishAs(field: string, publish: () => Promise<unknown>): Promise<void> {
  try {
    await publish();
  } catch (error) {
    if (error instanceof FieldErrors) {
      throw new FieldErrors(error.fields.map((problem) => ({ ...problem, field })));
    }
    throw error;
  }
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
