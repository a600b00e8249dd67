import type { Db } from '../../db/database.ts';
import type { EventBus } from '../realtime/event-bus.ts';

/** Told by an object's job once it has recorded a word on some of its changes. */
export type WorkLanded = (area: 'web' | 'dns', resourceId: number) => Promise<void>;

/**
 * Tells the browsers of the users who hold a grant on the resource that its changes moved on
 * (applied, refused, or an attempt failed), through the realtime channel: their open pages read
 * the state again instead of polling for it. The event says nothing but the area and the
 * resource's id; what the page then reads is authorized as any call.
 */
export function workEvents(db: Db, events: EventBus): WorkLanded {
  return async (area, resourceId) => {
    const rows = await db
      .selectFrom('permission_grants')
      .select('user_id')
      .where('resource_id', '=', resourceId)
      .execute();
    if (rows.length === 0) return;
    await events.publish({ type: 'work.changed', userIds: rows.map((row) => row.user_id), area, resourceId });
  };
}
