import { applyServiceJob } from '../../jobs/apply-service.jobs.ts';

/** A hosting service's pending web changes to its web server (WebApplyWorker). */
export const APPLY_WEB = applyServiceJob('web');
