import type { WorkArea } from '@panel247/contract/work-areas';
import type { PermissionService } from '../permission/permission.service.ts';
import type { EventBus } from './event-bus.ts';

/** Told by an object's job once it has recorded a word on some of its changes. */
export type WorkLanded = (area: WorkArea, resourceId: number) => Promise<void>;

/**
 * Tells the browsers of the users who can see the resource that its changes moved on (applied,
 * refused, or an attempt failed), through the realtime channel: their open pages read the state
 * again instead of polling for it. The event says nothing but the area and the resource's id;
 * what the page then reads is authorized as any call.
 */
export function workEvents(permissions: PermissionService, events: EventBus): WorkLanded {
  return async (area, resourceId) => {
    const userIds = await permissions.usersWhoSee(resourceId);
    if (userIds.length > 0) await events.publish({ type: 'work.changed', userIds, area, resourceId });
  };
}
