import { z } from 'zod';
import { idParam } from './fields.ts';
import { jobStatusSchema } from './job.ts';

/**
 * DNSSEC of a hosted zone (the DNS view's card) and the CDS/CDNSKEY scan of a domain hosted
 * elsewhere (the domain view's card).
 */

export const dnssecServiceParamsSchema = z.object({ id: idParam });
export const dnssecSignParamsSchema = z.object({
  id: idParam,
  /** Publish the DS at the registry in the same step ('1', the default) when the user may. */
  publish: z.enum(['0', '1'], { error: 'validation.invalid' }).optional().default('1'),
});
export const dnssecJobParamsSchema = z.object({
  id: idParam,
  jobId: z.string().regex(/^[a-f0-9]{32}$/, { error: 'validation.id' }),
});

/** One DS record of the zone's keys, as a registry takes it. */
export const zoneDsSchema = z.object({
  keytag: z.number().int(),
  algorithm: z.number().int(),
  digestType: z.number().int(),
  digest: z.string(),
  /** Whether the registry holds this very DS for the domain. */
  atRegistry: z.boolean(),
});
export type ZoneDs = z.infer<typeof zoneDsSchema>;

/** Unsigning in the safe order: the DS leaves the registry, the panel waits, then the keys go. */
export const DNSSEC_UNSIGN_STEPS = ['removing_ds', 'waiting', 'removing_keys', 'done'] as const;
export const dnssecUnsignJobSchema = z.object({
  id: z.string(),
  status: jobStatusSchema,
  step: z.enum(DNSSEC_UNSIGN_STEPS),
  /** Epoch seconds the wait ends (0 before it starts). */
  waitUntil: z.number(),
  waitSeconds: z.number(),
  /** Translated; '' unless it failed. */
  error: z.string(),
});
export type DnssecUnsignJob = z.infer<typeof dnssecUnsignJobSchema>;

export const DNSSEC_ZONE_STATES = ['unavailable', 'unsigned', 'signed', 'unsigning'] as const;
export const dnssecZoneDataSchema = z.object({
  /** unavailable: the DNS server here does not sign zones. */
  state: z.enum(DNSSEC_ZONE_STATES),
  ds: z.array(zoneDsSchema),
  /** The user may sign and unsign (the DNS zone's action right). */
  writable: z.boolean(),
  /** The user may publish or remove the DS at the registry (the domain's DNSSEC action right). */
  registry: z.boolean(),
  /** The unsigning under way, or the last one. */
  job: dnssecUnsignJobSchema.nullable(),
});
export type DnssecZoneData = z.infer<typeof dnssecZoneDataSchema>;
export const dnssecJobDataSchema = z.object({ job: dnssecUnsignJobSchema });
export type DnssecJobData = z.infer<typeof dnssecJobDataSchema>;

export const CDS_SCAN_OUTCOMES = ['unchanged', 'updated', 'deleted', 'no_cds', 'refused', 'failed'] as const;
export const cdsScanSchema = z.object({
  outcome: z.enum(CDS_SCAN_OUTCOMES),
  /** Translated: why it was refused or failed, or the DS set written. */
  detail: z.string(),
  /** Epoch seconds. */
  checkedAt: z.number(),
});
export type CdsScan = z.infer<typeof cdsScanSchema>;
export const cdsScanDataSchema = z.object({ scan: cdsScanSchema.nullable() });
export type CdsScanData = z.infer<typeof cdsScanDataSchema>;
