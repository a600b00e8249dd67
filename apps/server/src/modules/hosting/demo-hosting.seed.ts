import type { Db } from '../../db/database.ts';
import type { HostingServices } from './create-hosting-service.ts';
import { hostingRepository } from './hosting.repository.ts';

/**
 * The main site of demo.test (the whole home), written to the web driver's files. Only with the
 * embedded driver: the seed runs at every start of a fresh panel database and must not reload a
 * real web server nobody asked it to touch.
 */
export async function seedDemoHosting(hosting: HostingServices, demo: { id: number; domain: string }): Promise<void> {
  if (hosting.changes.live) return;
  await hosting.changes.provision(demo);
}

/**
 * parking-demo.test is what its name says: parking on, so its service view is the parked one
 * (the toggle and the redirections). Only the first time: a user who turns it off keeps it off.
 * Rows only, like a new service's: a real web server gets them with the service's first change.
 */
export async function seedDemoParking(hosting: HostingServices, db: Db, parkedId: number, now: number): Promise<void> {
  if (await hostingRepository.settings(db, parkedId)) return;
  await hosting.changes.ensure(db, parkedId);
  await hostingRepository.updateSettings(db, parkedId, { parking: 1, updated_at: now });
}
