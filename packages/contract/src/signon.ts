import { z } from 'zod';

/**
 * What WebMail, WebFTP and phpMyAdmin logins return: a form the browser posts (in a new tab) to
 * the other application. The fields carry a one-time token, never a password. `get` opens a page
 * of the panel itself (its own file manager as the WebFTP when no other is set up), with the
 * fields as the query.
 */
export const signonFormSchema = z.object({
  action: z.string(),
  method: z.enum(['post', 'get']),
  fields: z.record(z.string(), z.string()),
});
export type SignonForm = z.infer<typeof signonFormSchema>;

/** The shared-key body with which another application's server redeems a token. */
export const signonRedeemParamsSchema = z.object({ token: z.string().max(100), key: z.string().max(200) });
