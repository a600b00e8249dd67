import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { FileWorkers } from '../../drivers/files/confined/protocol.ts';
import { hostsAnswered } from '../../drivers/web/hosts-answered.ts';
import { serviceFileOwner } from '../files/service-file-owner.ts';
import type { PartMoveWork } from '../nodes/part-move.jobs.ts';
import { PlacementService } from '../nodes/placement.service.ts';
import { hostOf } from './hosting-input.ts';
import type { WebNode } from './web-node.ts';

/**
 * A server's side of a web move: serving a service that arrived (its account, its sites, proven
 * answered by this server's nginx), and releasing one that left (its sites' configuration and
 * the files of its home). Each first checks which server holds the service now, so a move rolled
 * back never has its old copy released or a stale copy served.
 */
export function webMoveWork(
  db: Db,
  config: AppConfig,
  web: WebNode,
  files: FileWorkers,
  now: () => number,
): PartMoveWork {
  const placement = new PlacementService(db, now);
  const here = config.agent.node;
  const holds = async (serviceId: number) => (await placement.nodeOf(serviceId, 'web')) === here;
  const ownerOf = serviceFileOwner(db, config);
  return {
    // the old copy keeps serving the site until the records have switched: nothing to stop
    async hold() {},
    async serve({ serviceId, domain }) {
      if (!(await holds(serviceId))) return;
      await web.users.ensureHere(serviceId, domain);
      const model = await web.model.read(db, { id: serviceId, domain }, 'all');
      await web.driver.apply(model);
      // the embedded driver serves nothing to ask
      if (config.web.driver !== 'nginx') return;
      const hosts = model.sites.map((site) => hostOf(site.subdomain, domain));
      const failing = (await hostsAnswered(config.web.httpListen, hosts)).filter(
        (answer) => answer.status === 0 || answer.status >= 500,
      );
      if (failing.length > 0)
        throw new Error(`not served here: ${failing.map((answer) => `${answer.host} (${answer.status})`).join(', ')}`);
    },
    async release({ serviceId, domain }) {
      if (await holds(serviceId)) return;
      await web.driver.remove(serviceId);
      const base = path.join(config.hosting.root as string, domain);
      const owner = await ownerOf(serviceId);
      const entries = await files
        .call<{ name: string }[]>({ op: 'list', base, folder: [], args: { path: '' }, owner })
        .catch(() => []);
      for (const entry of entries)
        await files.call({ op: 'remove', base, folder: [], args: { path: entry.name }, owner });
    },
  };
}
