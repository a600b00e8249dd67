import type { DefaultRecord } from '@panel247/contract/dns-default-records';
import type { LookupState, MailAuthRecord } from '@panel247/contract/mail-auth';
import type { TxtLookup } from '../../drivers/dkim/txt-lookup.ts';
import { dmarcAnswerProblem, spfAnswerProblem } from './mail-auth-check.ts';
import { isDkim, isDmarc, isSpf, type MailDomain } from './mail-auth-domain.ts';

/** What the world sees of a mail domain's TXT records, and a record as the mail view's card shows it. */
export class MailRecordLookup {
  constructor(
    private readonly lookup: TxtLookup,
    private readonly settings: { zonesOnlyHere: boolean },
  ) {}

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

  async lookupState(
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
  async record(
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
