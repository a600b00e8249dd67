import type { MailAuthProblem } from '@panel247/contract/mail-auth';
import {
  dmarcProblem,
  isDmarcText,
  isSpfText,
  SPF_MAX_LOOKUPS,
  spfLookupTerms,
  spfProblem,
} from '@panel247/contract/mail-auth-rules';
import type { TxtLookup } from '../../drivers/dkim/txt-lookup.ts';

/** How many domains one check follows at most: past the limit the answer is already "too many". */
const MAX_FOLLOWED = SPF_MAX_LOOKUPS + 2;

/**
 * What a receiver would find wrong with the SPF records a name answers: two of them (a
 * `permerror`), one receivers cannot parse, or one that costs more than ten DNS lookups with its
 * includes and redirect followed through `lookup`. Undefined when nothing is wrong or no SPF
 * record is there (missing is the lookup state's to say).
 */
export async function spfAnswerProblem(
  domain: string,
  answer: string[],
  lookup: TxtLookup,
): Promise<{ problem: MailAuthProblem; lookups?: number } | undefined> {
  const records = answer.filter(isSpfText);
  if (records.length > 1) return { problem: 'two_records' };
  const [record] = records;
  if (record === undefined) return undefined;
  if (spfProblem(record)) return { problem: 'syntax' };
  const lookups = await countSpfLookups(domain, record, lookup);
  return lookups > SPF_MAX_LOOKUPS ? { problem: 'lookups', lookups } : undefined;
}

/** The DMARC records a `_dmarc` name answers: two of them, or one receivers cannot parse. */
export function dmarcAnswerProblem(answer: string[]): { problem: MailAuthProblem } | undefined {
  const records = answer.filter(isDmarcText);
  if (records.length > 1) return { problem: 'two_records' };
  const [record] = records;
  return record !== undefined && dmarcProblem(record) ? { problem: 'syntax' } : undefined;
}

/**
 * The DNS lookups one SPF check of `domain`'s `record` costs (RFC 7208 4.6.4), following each include and
 * redirect to its domain's SPF record, as a receiver would. A domain that includes itself through
 * others (a loop) never ends for a receiver, so it counts as over the limit; the walk stops once
 * past the limit or after a bounded number of queries. A domain that does not answer counts its
 * term only.
 */
export async function countSpfLookups(domain: string, record: string, lookup: TxtLookup): Promise<number> {
  let queries = 0;
  const over = SPF_MAX_LOOKUPS + 1;
  const walk = async (text: string, path: Set<string>, before: number): Promise<number> => {
    const { count, follow } = spfLookupTerms(text);
    let total = before + count;
    for (const domain of follow) {
      if (total > SPF_MAX_LOOKUPS) break;
      if (path.has(domain)) return Math.max(total, over);
      if (queries >= MAX_FOLLOWED) break;
      queries += 1;
      const spf = (await lookup.txt(domain))?.filter(isSpfText) ?? [];
      if (spf.length === 1) total = await walk(spf[0] as string, new Set([...path, domain]), total);
    }
    return total;
  };
  return walk(record, new Set([domain.toLowerCase()]), 0);
}
