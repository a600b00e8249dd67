import { z } from 'zod';

export const privacyPolicyDataSchema = z.object({
  title: z.string(),
  /** Plain text, paragraphs separated by blank lines. Never HTML. */
  text: z.string(),
  /** When set, the policy lives at this URL and the client opens it in a new tab. */
  redirecTo: z.string(),
});
export type PrivacyPolicyData = z.infer<typeof privacyPolicyDataSchema>;
