import { z } from 'zod';
import { email, line, text } from './fields.ts';

export const contactMailParamsSchema = z.object({
  email,
  subject: line(200),
  contents: text(5000),
});
export type ContactMailParams = z.infer<typeof contactMailParamsSchema>;
