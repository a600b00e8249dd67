import type { HostingServices } from './create-hosting-service.ts';

/**
 * The main site of demo.test (the whole home), written to the web driver's files. Only with the
 * embedded driver: the seed runs at every start of a fresh panel database and must not reload a
 * real web server nobody asked it to touch.
 */
export async function seedDemoHosting(hosting: HostingServices, demo: { id: number; domain: string }): Promise<void> {
  if (hosting.changes.live) return;
  await hosting.changes.provision(demo);
}
