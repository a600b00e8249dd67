import { z } from 'zod';
import { idParam, integerOr, optionalInteger, textAsTyped } from './fields.ts';

/** One DNS record of a service's zone, as the API returns it. */
export const dnsRecordSchema = z.object({
  id: z.number().int(),
  /** The owner name relative to the zone ('' for the apex), in ASCII (punycode). */
  zona: z.string(),
  reference: z.string(),
  referencePunycode: z.string(),
  type: z.string(),
  ttl: z.number().int(),
  /** MX and SRV only; 0 for the other types. */
  priority: z.number().int(),
  /** Canonical value: SRV "weight port target", CAA `flag tag "value"`, TXT the unquoted text. */
  value: z.string(),
  /** For records the provider keeps in step (restored defaults): what the value follows. */
  dynamicValue: z.string(),
  eliminable: z.boolean(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

export const dnsServiceParamsSchema = z.object({ id: idParam });

/**
 * The list call. Without `page` it returns every record (the spec's call); with it, one page of the
 * records matching `type` and the text `filter`, and `total` — so a 10,000-record zone answers as
 * fast as a small one. The filter runs over name, type, reference, TTL, priority, value and
 * dynamic value, case-insensitive.
 */
export const dnsListParamsSchema = z.object({
  id: idParam,
  page: optionalInteger('validation.invalid', { min: 1 }),
  pageSize: integerOr(10, 'validation.invalid', { min: 1, max: 100 }),
  type: z
    .enum(['', 'A', 'AAAA', 'ANAME', 'CAA', 'CNAME', 'MX', 'NS', 'SRV', 'TXT'], { error: 'dns.error.type' })
    .optional()
    .default(''),
  filter: textAsTyped(200).optional().default(''),
});
export type DnsListParams = z.infer<typeof dnsListParamsSchema>;
export const dnsRecordParamsSchema = z.object({ id: idParam, dnsZoneId: idParam });

export const dnsCreateParamsSchema = z.object({
  id: idParam,
  type: textAsTyped(10),
  zona: textAsTyped(253).optional().default(''),
  value: textAsTyped(4000),
  ttl: integerOr(0, 'dns.error.ttl'),
  priority: integerOr(20, 'dns.error.priority'),
});
export type DnsCreateParams = z.infer<typeof dnsCreateParamsSchema>;

export const dnsSaveParamsSchema = z.object({
  id: idParam,
  dnsZoneId: idParam,
  value: textAsTyped(4000),
  ttl: integerOr(0, 'dns.error.ttl'),
  priority: integerOr(20, 'dns.error.priority'),
});
export type DnsSaveParams = z.infer<typeof dnsSaveParamsSchema>;

/**
 * Whether the zone's changes are all on its DNS server: null when they are (or the panel has no
 * DNS server to publish to); `pending` while its job is publishing them; `failing` when the last
 * attempt failed (`reason`: the server was `down`, answered too `late`, or `failed` otherwise) and
 * the work log will try again. `since`: epoch seconds of the oldest change not yet published.
 */
export const dnsPublishingSchema = z
  .object({
    state: z.enum(['pending', 'failing']),
    since: z.number().int(),
    reason: z.enum(['down', 'late', 'failed']).nullable(),
  })
  .nullable();
export type DnsPublishing = z.infer<typeof dnsPublishingSchema>;

export const dnsListDataSchema = z.object({
  dnss: z.array(dnsRecordSchema),
  total: z.number().int(),
  publishing: dnsPublishingSchema.optional(),
});
export const dnsOneDataSchema = z.object({
  dns: dnsRecordSchema,
  /**
   * Create and edit: how many other records of the record's name and type took its TTL with it
   * (the DNS server serves one TTL per RRset); absent when none changed.
   */
  rrsetRetimed: z.number().int().optional(),
});

// The calls' shapes as types, so the web can import them without zod.
export type DnsListData = z.infer<typeof dnsListDataSchema>;
export type DnsOneData = z.infer<typeof dnsOneDataSchema>;
