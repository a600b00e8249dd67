import { z } from 'zod';
import { WORK_AREAS } from './work-areas.ts';

/** Messages the realtime socket (`{base}realtime/`) pushes to the browser. */
export const realtimeMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello') }),
  /** Permissions of this user changed: reload menus and permission sets. */
  z.object({ type: z.literal('permissions.changed'), resourceId: z.number().int().nullable() }),
  /** This session was ended elsewhere (logout, password change, timeout). */
  z.object({ type: z.literal('session.ended') }),
  /**
   * A server applied some of this resource's changes, or an attempt failed: read the area's
   * state again (the service's web side or FTP accounts, or its DNS zone).
   */
  z.object({ type: z.literal('work.changed'), area: z.enum(WORK_AREAS), resourceId: z.number().int() }),
]);
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;
