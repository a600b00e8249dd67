import { z } from 'zod';

/** A long task the server runs after answering (an application install); the client follows it. */
export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** Job ids are 32 hex characters. */
export const jobParamsSchema = z.object({
  jobId: z.string().regex(/^[a-f0-9]{32}$/, { error: 'validation.id' }),
});

/**
 * Whether an object's changes in one area are all on its server: null, or since when some wait
 * and, once an attempt failed, why (`reasons` are the area's own; `failed`: anything else). The
 * work log keeps trying; the customer may ask for it now.
 */
export function applyingSchema<const R extends readonly string[]>(reasons: R) {
  return z
    .object({
      state: z.enum(['pending', 'failing']),
      since: z.number().int(),
      reason: z.enum([...reasons, 'failed']).nullable(),
    })
    .nullable();
}
