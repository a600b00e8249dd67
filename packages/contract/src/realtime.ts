import { z } from 'zod';

/** Messages the realtime socket (`{base}realtime/`) pushes to the browser. */
export const realtimeMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello') }),
  /** Permissions of this user changed: reload menus and permission sets. */
  z.object({ type: z.literal('permissions.changed'), resourceId: z.number().int().nullable() }),
  /** This session was ended elsewhere (logout, password change, timeout). */
  z.object({ type: z.literal('session.ended') }),
]);
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;
