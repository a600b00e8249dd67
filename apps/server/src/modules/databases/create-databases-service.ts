import type { AppConfig } from '../../config.ts';
import { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { createDatabasesDriver } from '../../drivers/databases/create-databases-driver.ts';
import type { DatabasesDriver } from '../../drivers/databases/databases.driver.ts';
import { type ChangeDelivery, ServiceChanges } from '../../jobs/service-changes.ts';
import type { BrandService } from '../brand/brand.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { SignonTokens } from '../signon/signon-tokens.ts';
import { DatabasesService } from './databases.service.ts';
import { APPLY_DATABASES, DatabasesApplyWorker } from './databases-apply-worker.ts';
import { databasesMoveWork } from './databases-move-work.ts';

/** The databases' passwords' box (the request side seals, the node opens). */
function passwordBox(secretKey: Buffer): SecretBox {
  return new SecretBox(secretKey, 'database-password');
}

/** A machine's database side: its driver, and what applies the services' database changes (the node agent builds only this). */
export function createDatabasesNode(
  db: Db,
  config: AppConfig,
  secretKey: Buffer,
  now: () => number,
  landed?: WorkLanded,
) {
  const driver = createDatabasesDriver(config);
  const secrets = passwordBox(secretKey);
  return {
    driver,
    worker: new DatabasesApplyWorker(db, driver, secrets, now, landed),
    moves: databasesMoveWork(db, driver, secrets, config.agent.node, now),
  };
}

export function createDatabasesService(
  db: Db,
  config: AppConfig,
  brands: BrandService,
  secretKey: Buffer,
  now: () => number,
  options: {
    permissions?: PermissionService;
    /** How database changes reach the server (default: applied in this process, for the CLI and seeds). */
    delivery?: ChangeDelivery;
    /** This machine's database side, when the caller binds its worker too. */
    node?: { driver: DatabasesDriver; worker: DatabasesApplyWorker };
  } = {},
): DatabasesService {
  const node = options.node ?? createDatabasesNode(db, config, secretKey, now);
  const changes = new ServiceChanges(db, APPLY_DATABASES, node.worker, options.delivery ?? { inline: true }, now, {
    undone: 'ddbb.error.undone',
  });
  return new DatabasesService(
    db,
    options.permissions ?? new PermissionService(db),
    brands,
    node.driver,
    changes,
    passwordBox(secretKey),
    new SignonTokens(db, now),
    { ...config.databases, node: config.agent.node },
    now,
  );
}
