import { BrandService } from '../../modules/brand/brand.service.ts';
import { createHostingService } from '../../modules/hosting/create-hosting-service.ts';
import { loadSecretKey } from '../../secret-key.ts';
import { type CommandGroup, defineCommand } from '../command.ts';
import { table } from '../output.ts';

const DRIFT = {
  missing: 'not served (no live configuration)',
  changed: 'served differently from the panel',
  extra: 'served, but the panel has no such service',
} as const;

const sync = defineCommand({
  name: 'sync',
  summary:
    'Make the web server (nginx + PHP-FPM) serve every hosting service as the panel has it — after a restore, a switch from the embedded driver, or a configuration changed by hand — and report what had drifted (--dry-run: report only)',
  usage: '[--dry-run]',
  options: { 'dry-run': { type: 'boolean' } },
  parse: ({ values }) => ({ dryRun: values['dry-run'] === true }),
  async run({ runtime, config, now }, input: { dryRun: boolean }) {
    const hosting = createHostingService(runtime.db, config, new BrandService(runtime.db), loadSecretKey(config), now);
    try {
      const report = await hosting.changes.sync(input);
      const lines = report.map((entry) => [
        String(entry.serviceId),
        entry.domain ?? '—',
        DRIFT[entry.drift],
        input.dryRun ? 'not repaired (dry run)' : entry.repaired ? 'repaired' : `FAILED: ${entry.error ?? ''}`,
      ]);
      const failed = report.filter((entry) => !input.dryRun && !entry.repaired).length;
      const summary = `Web driver "${config.web.driver}": ${report.length} service(s) had drifted${input.dryRun ? '' : `, ${report.length - failed} repaired`}.`;
      return {
        exitCode: failed > 0 ? 1 : 0,
        json: { driver: config.web.driver, dryRun: input.dryRun, services: report },
        text:
          lines.length > 0
            ? `${table(['ID', 'SERVICE', 'DRIFT', 'RESULT'], lines)}\n${summary}`
            : `No drift. ${summary}`,
      };
    } finally {
      await hosting.close();
    }
  },
});

export const webCommands: CommandGroup = {
  name: 'web',
  summary: 'Sites: reconcile the web server (nginx + PHP-FPM) with the panel',
  commands: [sync],
};
