import { z } from 'zod';

/**
 * A session's id in the list: derived one way from the stored hash, so the answer carries neither
 * the cookie's token nor the hash that finds it.
 */
export const SESSION_REF_PATTERN = /^[0-9a-f]{32}$/;

export const sessionItemSchema = z.object({
  id: z.string(),
  /** Browser name and major version from the user agent ("Firefox 133"); '' when unknown. */
  browser: z.string(),
  /** Operating system and its version ("Windows 10", "iOS 17.5"); '' when unknown. */
  os: z.string(),
  device: z.enum(['desktop', 'mobile', 'tablet', 'other']),
  /** The address the session was last seen from. */
  ip: z.string(),
  /** Unix seconds. */
  createdAt: z.number().int(),
  /** Unix seconds; refreshed at most once a minute. */
  lastSeenAt: z.number().int(),
  /** The session of this call: ended by logging out, not from the list. */
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof sessionItemSchema>;

/** The caller's own active sessions, this one first, then the most recently seen. */
export const sessionListDataSchema = z.object({ sessions: z.array(sessionItemSchema) });
export type SessionListData = z.infer<typeof sessionListDataSchema>;

export const sessionEndParamsSchema = z.object({
  id: z.string().regex(SESSION_REF_PATTERN, { error: 'validation.id' }),
});
export type SessionEndParams = z.infer<typeof sessionEndParamsSchema>;

export const sessionsEndedDataSchema = z.object({ ended: z.number().int() });
export type SessionsEndedData = z.infer<typeof sessionsEndedDataSchema>;
