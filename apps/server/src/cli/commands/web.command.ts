import { BrandService } from '../../modules/brand/brand.service.ts';
import { createHostingService } from '../../modules/hosting/create-hosting-service.ts';
import { loadSecretKey } from '../../secret-key.ts';
import type { CommandGroup } from '../command.ts';
import { repairResult, type SyncStep, syncCommand } from '../sync-step.ts';

const DRIFT = {
  missing: 'not served (no live configuration)',
  changed: 'served differently from the panel',
  extra: 'served, but the panel has no such service',
} as const;

export const webSyncStep: SyncStep = {
  name: 'web',
  async run({ runtime, config, now }, options) {
    const hosting = createHostingService(runtime.db, config, new BrandService(runtime.db), loadSecretKey(config), now);
    try {
      const report = await hosting.changes.sync(options);
      const failed = report.filter((entry) => !options.dryRun && !entry.repaired).length;
      return {
        json: { driver: config.web.driver, dryRun: options.dryRun, services: report },
        headers: ['ID', 'SERVICE', 'DRIFT', 'RESULT'],
        rows: report.map((entry) => [
          String(entry.serviceId),
          entry.domain ?? '—',
          DRIFT[entry.drift],
          repairResult(options, entry),
        ]),
        summary: `Web driver "${config.web.driver}": ${report.length} service(s) had drifted${options.dryRun ? '' : `, ${report.length - failed} repaired`}.`,
        failed,
      };
    } finally {
      await hosting.close();
    }
  },
};

export const webCommands: CommandGroup = {
  name: 'web',
  summary: 'Sites: reconcile the web server (nginx + PHP-FPM) with the panel',
  commands: [
    syncCommand(
      webSyncStep,
      'Make the web server (nginx + PHP-FPM) serve every hosting service as the panel has it — after a restore, a switch from the embedded driver, or a configuration changed by hand — and report what had drifted',
    ),
  ],
};
