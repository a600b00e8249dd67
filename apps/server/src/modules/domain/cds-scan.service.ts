import type { Db } from '../../db/database.ts';
import type { ValidatedAnswer, ValidatedLookup } from '../../drivers/dnssec/validated-lookup.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { decideCds } from './cds-rules.ts';
import { dnssecRepository } from './dnssec.repository.ts';
import type { DomainService } from './domain.service.ts';
import type { DomainDnssecService } from './domain-dnssec.service.ts';

/** One domain's scan, as stored and shown; `detail` is a message key for refused and failed. */
export interface CdsScanResult {
  domain: string;
  outcome: 'unchanged' | 'updated' | 'deleted' | 'no_cds' | 'refused' | 'failed';
  detail: string;
  checkedAt: number;
}

/** A change the scan made at the registry, for the log. */
export interface CdsChange {
  domain: string;
  removed: string[];
  added: string[];
}

const dsText = (ds: { keytag: number; algorithm: number; digestType: number; digest: string }) =>
  `${ds.keytag} ${ds.algorithm} ${ds.digestType} ${ds.digest}`;

/**
 * The CDS/CDNSKEY scan (RFC 7344/8078) of the domains registered here whose zone is hosted
 * elsewhere (their own name servers) and that have a DS at the registry: the child's CDS,
 * CDNSKEY and DNSKEY are read over validated DNS (`ValidatedLookup`: nothing unvalidated is ever
 * acted on), `decideCds` applies the RFC's rules, and the registry's DS set is updated. Each
 * domain's last result is kept for its DNSSEC card; each change is logged. Scheduled rounds are
 * the job engine's (scheduled-rounds.ts), once across instances.
 */
export class CdsScanService {
  constructor(
    private readonly db: Db,
    private readonly domains: DomainService,
    private readonly dnssec: DomainDnssecService,
    private readonly lookup: ValidatedLookup,
    private readonly now: () => number,
    private readonly onChange: (change: CdsChange) => void,
  ) {}

  /** Scans every candidate domain now (the CLI's `dnssec scan`, and each scheduled round). */
  async scanAll(): Promise<CdsScanResult[]> {
    const results: CdsScanResult[] = [];
    for (const candidate of await dnssecRepository.scanCandidates(this.db)) {
      results.push(await this.scanOne(candidate.resource_id, candidate.reference_punycode));
    }
    return results;
  }

  async scanOne(id: number, domain: string): Promise<CdsScanResult> {
    const result = await this.decideAndApply(id, domain).catch((error: unknown) => ({
      outcome: 'failed' as const,
      detail: error instanceof AppError ? error.messageKey : 'error.internal',
    }));
    const checkedAt = this.now();
    await dnssecRepository.saveScan(this.db, { resource_id: id, ...result, checked_at: checkedAt });
    return { domain, ...result, checkedAt };
  }

  private async decideAndApply(id: number, domain: string): Promise<Omit<CdsScanResult, 'domain' | 'checkedAt'>> {
    const [cds, cdnskey, dnskey] = await Promise.all([
      this.lookup.lookup(domain, 'CDS'),
      this.lookup.lookup(domain, 'CDNSKEY'),
      this.lookup.lookup(domain, 'DNSKEY'),
    ]);
    const unvalidated = [cds, cdnskey, dnskey].find((answer) => answer.status !== 'validated');
    if (unvalidated) return notValidated(unvalidated);
    const current = await this.dnssec.registryDs(id);
    const decision = decideCds(domain, current, {
      cds: cds.records,
      cdnskey: cdnskey.records,
      dnskey: dnskey.records,
      dnskeySigners: dnskey.signers,
    });
    switch (decision.outcome) {
      case 'no_cds':
      case 'unchanged':
        return { outcome: decision.outcome, detail: '' };
      case 'refused':
        return { outcome: 'refused', detail: decision.reason };
      case 'deleted':
      case 'updated': {
        const wanted = decision.outcome === 'updated' ? decision.ds : [];
        const { removed, added } = await this.dnssec.replaceDs(id, domain, wanted);
        this.onChange({ domain, removed: removed.map(dsText), added: added.map(dsText) });
        return { outcome: decision.outcome, detail: wanted.map(dsText).join('\n') };
      }
    }
  }

  /** The domain's last scan, for its DNSSEC card (the domain's DNSSEC visibility). */
  async last(actor: Actor, id: number): Promise<Omit<CdsScanResult, 'domain'> | null> {
    await this.domains.context(actor, id, 'domain_dnssec', 'visible');
    const row = await dnssecRepository.scan(this.db, id);
    if (!row) return null;
    return {
      outcome: row.outcome as CdsScanResult['outcome'],
      detail: row.detail,
      checkedAt: Number(row.checked_at),
    };
  }
}

function notValidated(answer: ValidatedAnswer): Omit<CdsScanResult, 'domain' | 'checkedAt'> {
  if (answer.status === 'insecure') return { outcome: 'refused', detail: 'dnssec.scan.insecure' };
  if (answer.status === 'bogus') return { outcome: 'refused', detail: 'dnssec.scan.bogus' };
  return { outcome: 'failed', detail: 'dnssec.scan.no_answer' };
}
