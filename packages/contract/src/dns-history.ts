import { z } from 'zod';
import { idParam, integerOr } from './fields.ts';

/**
 * What made a change set: a record created, edited or deleted, an import, restore defaults,
 * delete all, a revert or a restore-as-at from the history, a backup restored, the zone's
 * first records, mail's own TXT records (DKIM, SPF, DMARC), a sync that repaired the server.
 */
export const DNS_CHANGE_KINDS = [
  'zone',
  'create',
  'edit',
  'delete',
  'import',
  'defaults',
  'delete_all',
  'revert',
  'restore_at',
  'backup',
  'mail',
  'sync',
] as const;
export type DnsChangeKind = (typeof DNS_CHANGE_KINDS)[number];

/** A record as the history keeps it (its name and type are the RRset's). */
export const dnsHistoryRecordSchema = z.object({
  ttl: z.number().int(),
  priority: z.number().int(),
  value: z.string(),
  dynamicValue: z.string(),
  eliminable: z.boolean(),
});
export type DnsHistoryRecord = z.infer<typeof dnsHistoryRecordSchema>;

/** One change set of a zone. `who` is the user's name ('' for the panel itself); `at` epoch seconds. */
export const dnsChangeSetSchema = z.object({
  id: z.number().int(),
  at: z.number().int(),
  who: z.string(),
  kind: z.enum(DNS_CHANGE_KINDS),
  /** A revert's: the change set it reverted; a restore's: the change set the zone went back to. */
  refersTo: z.number().int().nullable(),
  /** How many RRsets it touched. */
  rrsets: z.number().int(),
});
export type DnsChangeSet = z.infer<typeof dnsChangeSetSchema>;

/** One RRset a change set touched: its records before and after (empty: it did not exist). */
export const dnsChangeRRsetSchema = z.object({
  zona: z.string(),
  type: z.string(),
  before: z.array(dnsHistoryRecordSchema),
  after: z.array(dnsHistoryRecordSchema),
});
export type DnsChangeRRset = z.infer<typeof dnsChangeRRsetSchema>;

const page = integerOr(1, 'validation.invalid', { min: 1, max: 1_000_000 });
const pageSize = integerOr(10, 'validation.invalid', { min: 1, max: 100 });

/** The zone's history, newest first, one page at a time. */
export const dnsHistoryParamsSchema = z.object({ id: idParam, page, pageSize });
export type DnsHistoryParams = z.infer<typeof dnsHistoryParamsSchema>;
export const dnsHistoryDataSchema = z.object({ changes: z.array(dnsChangeSetSchema), total: z.number().int() });
export type DnsHistoryData = z.infer<typeof dnsHistoryDataSchema>;

/** One change set and one page of its diff (RRsets by name and type). */
export const dnsChangeParamsSchema = z.object({ id: idParam, changeId: idParam, page, pageSize });
export type DnsChangeParams = z.infer<typeof dnsChangeParamsSchema>;
export const dnsChangeDataSchema = z.object({
  change: dnsChangeSetSchema,
  rrsets: z.array(dnsChangeRRsetSchema),
  total: z.number().int(),
});
export type DnsChangeData = z.infer<typeof dnsChangeDataSchema>;

/** Revert a change set, restore the zone as it was after one, export it as it was then. */
export const dnsChangeActionParamsSchema = z.object({ id: idParam, changeId: idParam });
export type DnsChangeActionParams = z.infer<typeof dnsChangeActionParamsSchema>;
/** A revert or restore answers with the change set it made (none when nothing differed). */
export const dnsChangeMadeDataSchema = z.object({ change: dnsChangeSetSchema.nullable() });
export type DnsChangeMadeData = z.infer<typeof dnsChangeMadeDataSchema>;
