import type { JobStatus } from '@panel247/contract/job';
import type { Db } from '../../db/database.ts';

/** The installer's jobs; a job is read only by the user who started it. */
export const installerRepository = {
  insert(db: Db, job: { id: string; userId: number; serviceId: number; appId: number; now: number }) {
    return db
      .insertInto('install_jobs')
      .values({
        id: job.id,
        user_id: job.userId,
        service_id: job.serviceId,
        app_id: job.appId,
        status: 'queued',
        created_at: job.now,
        updated_at: job.now,
      })
      .execute();
  },
  update(
    db: Db,
    id: string,
    set: { status?: JobStatus; progress?: number; result_url?: string; result_folder?: string; error_key?: string },
    now: number,
  ) {
    return db
      .updateTable('install_jobs')
      .set({ ...set, updated_at: now })
      .where('id', '=', id)
      .execute();
  },
  /**
   * A job whose work was lost ends as failed, unless it ended meanwhile: its own worker may have
   * finished between the caller's read of the row and its look at the engine.
   */
  failUnfinished(db: Db, id: string, errorKey: string, now: number) {
    return db
      .updateTable('install_jobs')
      .set({ status: 'failed', error_key: errorKey, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute();
  },
  /** A job by its id alone (its own worker's read). */
  byId(db: Db, id: string) {
    return db.selectFrom('install_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  },
  find(db: Db, id: string, userId: number) {
    return db
      .selectFrom('install_jobs')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },
  /** Finished jobs are kept a week: long enough for any client to read how its install ended. */
  sweep(db: Db, before: number) {
    return db
      .deleteFrom('install_jobs')
      .where('status', 'in', ['done', 'failed'])
      .where('updated_at', '<', before)
      .execute();
  },
};
