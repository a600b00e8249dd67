import path from 'node:path';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { FileOwner, FileWorkers } from '../../drivers/files/confined/protocol.ts';
import { SiteLogs } from '../../drivers/stats/site-logs.ts';
import { hostsAnswered } from '../../drivers/web/hosts-answered.ts';
import { serviceFileOwner } from '../files/service-file-owner.ts';
import type { PartMoveWork } from '../nodes/part-move.jobs.ts';
import type { PartRemovalWork } from '../nodes/part-removal.jobs.ts';
import { PlacementService } from '../nodes/placement.service.ts';
import { statsDir } from '../stats/create-stats.ts';
import { hostOf } from './hosting-input.ts';
import type { WebNode } from './web-node.ts';

/**
 * A server's side of a web move: serving a service that arrived (its account, its sites, proven
 * answered by this server's nginx), and releasing one that left (its sites' configuration and
 * the files of its home). Each first checks which server holds the service now, so a move rolled
 * back never has its old copy released or a stale copy served. And its side of a termination:
 * the sites, the whole home, the FTP logins and the service's system account removed.
 */
export function webMoveWork(
  db: Db,
  config: AppConfig,
  web: WebNode,
  files: FileWorkers,
  ftp: { publishAll(): Promise<void> },
  now: () => number,
): PartMoveWork & PartRemovalWork {
  const placement = new PlacementService(db, now);
  const here = config.agent.node;
  const holds = async (serviceId: number) => (await placement.nodeOf(serviceId, 'web')) === here;
  const ownerOf = serviceFileOwner(db, config);
  const statsLogs = new SiteLogs(statsDir(config));
  /** Everything in the home removed as its owner (a link planted in it is removed, never followed). */
  const emptyHome = async (domain: string, owner: FileOwner | undefined) => {
    const base = path.join(config.hosting.root as string, domain);
    const entries = await files
      .call<{ name: string }[]>({ op: 'list', base, folder: [], args: { path: '' }, owner })
      .catch(() => []);
    for (const entry of entries)
      await files.call({ op: 'remove', base, folder: [], args: { path: entry.name }, owner });
  };
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
      await emptyHome(domain, await ownerOf(serviceId));
      await statsLogs.remove(serviceId);
    },
    async remove({ serviceId, domain, owner, user }) {
      // the sites and the PHP pool first: nothing runs as the service's user any more
      await web.driver.remove(serviceId);
      // the FTP logins' copy (a panel on SQLite) written again without the service's
      await ftp.publishAll();
      await emptyHome(domain, owner);
      // written into meanwhile, it is not empty: the job's retry empties it again
      await web.homes.removeEmpty(domain);
      if (user) await web.users.removeAccount(user);
      // the requests kept for its statistics (their summaries went with its rows)
      await statsLogs.remove(serviceId);
    },
  };
}
