import { z } from 'zod';

/** A long task the server runs after answering (an application install); the client follows it. */
export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** Job ids are 32 hex characters. */
export const jobParamsSchema = z.object({
  jobId: z.string().regex(/^[a-f0-9]{32}$/, { error: 'validation.id' }),
});
