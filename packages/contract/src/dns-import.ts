import { z } from 'zod';
import { DNS_IMPORT_CONFLICT_CHOICES, DNS_IMPORT_MAX_TEXT, DNS_IMPORT_MODES } from './dns-rules.ts';
import { idParam, line } from './fields.ts';

/**
 * A BIND master file for a service's zone, previewed (`dns/import/preview/`) or applied
 * (`dns/import/`); the same input for both, so apply imports exactly what the preview showed
 * (read again, against the zone as it is then). Merge adds and changes; replace also removes the
 * deletable records the file does not have.
 */
export const dnsImportParamsSchema = z.object({
  id: idParam,
  text: z
    .string({ error: 'validation.required' })
    .max(DNS_IMPORT_MAX_TEXT, { error: 'dns.import.too_large' })
    .refine((text) => text.trim() !== '', { error: 'validation.required' }),
  mode: z.enum(DNS_IMPORT_MODES, { error: 'dns.import.mode' }).optional().default('merge'),
  /** A file's SPF or DMARC record beside a different one in the zone: keep the zone's (skip) or replace it. */
  conflicts: z.enum(DNS_IMPORT_CONFLICT_CHOICES, { error: 'dns.import.conflicts' }).optional().default('skip'),
});
export type DnsImportParams = z.infer<typeof dnsImportParamsSchema>;

/** A record of the file, in the panel's form (as the create call takes it), with its line. */
const importedRecordSchema = z.object({
  line: z.number().int(),
  zona: z.string(),
  type: z.string(),
  ttl: z.number().int(),
  priority: z.number().int(),
  value: z.string(),
});

/** A line not imported, and why (translated). */
const importLineSchema = z.object({ line: z.number().int(), text: z.string(), reason: z.string() });

export const dnsImportDataSchema = z.object({
  mode: z.enum(DNS_IMPORT_MODES),
  added: z.array(importedRecordSchema),
  /**
   * Records already there whose TTL (or a CNAME's target) the file changes: `before` is theirs.
   * A record the file does not have is here too when the file sets its RRset's TTL (one TTL per
   * name and type); its `line` is the line that sets it.
   */
  changed: z.array(
    importedRecordSchema.extend({
      before: z.object({ id: z.number().int(), ttl: z.number().int(), value: z.string() }),
    }),
  ),
  /** Replace only: the records the file does not have. */
  removed: z.array(
    z.object({
      id: z.number().int(),
      zona: z.string(),
      type: z.string(),
      ttl: z.number().int(),
      priority: z.number().int(),
      value: z.string(),
    }),
  ),
  /**
   * The file's SPF and DMARC records beside a different one the zone keeps at that name, with
   * the zone's and what the call does: `replace` (the zone's is in `removed`, the file's in
   * `added`) or `skip` (the file's is left out; an undeletable record of the zone always stays).
   */
  conflicts: z.array(
    importedRecordSchema.extend({
      existing: z.object({ id: z.number().int(), ttl: z.number().int(), value: z.string() }),
      resolution: z.enum(DNS_IMPORT_CONFLICT_CHOICES),
    }),
  ),
  /** Records of the file already in the zone as they are. */
  unchanged: z.number().int(),
  refused: z.array(importLineSchema),
  /** The SOA and the apex name servers: the provider's stay. */
  kept: z.array(importLineSchema),
  /** Apply only: whether it changed the zone (false when there was nothing to do). */
  applied: z.boolean(),
});
export type DnsImportData = z.infer<typeof dnsImportDataSchema>;

/** What the import offers for a zone: whether the provider allows reading it by AXFR, and the limits. */
export const dnsImportOptionsDataSchema = z.object({
  axfr: z.boolean(),
  maxText: z.number().int(),
  maxRecords: z.number().int(),
});
export type DnsImportOptionsData = z.infer<typeof dnsImportOptionsDataSchema>;

/**
 * The zone read from another name server by AXFR (where the provider allows it), as master-file
 * text: the client previews and applies that text like a pasted file.
 */
export const dnsImportAxfrParamsSchema = z.object({ id: idParam, server: line(253) });
export type DnsImportAxfrParams = z.infer<typeof dnsImportAxfrParamsSchema>;
export const dnsImportAxfrDataSchema = z.object({ text: z.string() });
export type DnsImportAxfrData = z.infer<typeof dnsImportAxfrDataSchema>;
