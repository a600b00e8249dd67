import { z } from 'zod';
import { jobStatusSchema } from './job.ts';

/** The `system` block every JSON answer carries. */
export const systemSchema = z.object({
  valid: z.boolean(),
  errors: z.array(z.string()),
  /** Field names matching `errors` by position. */
  inputs: z.array(z.string()),
  info: z.array(z.string()),
  statusCode: z.number().int(),
  debug: z.array(z.string()),
  job: z.object({ id: z.string(), status: jobStatusSchema, progress: z.number() }).nullable(),
  mlcVer: z.string(),
});
export type System = z.infer<typeof systemSchema>;

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ system: systemSchema, data });
}
export type Envelope<T> = { system: System; data: T };

/** An empty data object, for calls that only report success. */
export const emptyDataSchema = z.object({}).strict();
export type EmptyData = z.infer<typeof emptyDataSchema>;
