import { translate } from '../../i18n/messages.ts';
import { BrandService } from '../../modules/brand/brand.service.ts';
import { createHostingService, type HostingServices } from '../../modules/hosting/create-hosting-service.ts';
import { loadSecretKey } from '../../secret-key.ts';
import { type CommandContext, type CommandGroup, defineCommand } from '../command.ts';
import { table, timestamp } from '../output.ts';
import { syncCommand } from '../sync-step.ts';
import * as v from '../validate.ts';
import { webSyncStep } from './web.command.ts';

/** Runs one call with the hosting services built for it (DNS-01 through the configured DNS driver). */
async function withCertificates<T>(
  { runtime, config, now }: CommandContext,
  work: (certificates: HostingServices['certificates']) => Promise<T>,
): Promise<T> {
  const hosting = createHostingService(
    runtime.db,
    config,
    new BrandService(runtime.db),
    loadSecretKey(config),
    now,
    undefined,
    { dnsDriver: runtime.dnsDriver },
  );
  try {
    return await work(hosting.certificates);
  } finally {
    await hosting.close();
  }
}

async function listing(ctx: CommandContext) {
  const certificates = await withCertificates(ctx, (service) => service.list());
  return {
    json: { certificates },
    text: table(
      ['HOST', 'STATE', 'EXPIRES', 'LAST ERROR'],
      certificates.map((entry) => [
        entry.host,
        entry.state,
        entry.expiresAt ? timestamp(entry.expiresAt) : '—',
        entry.errorKey ? translate('en', entry.errorKey) : '',
      ]),
    ),
    exitCode: certificates.some((entry) => entry.state === 'failed') ? 1 : 0,
  };
}

const list = defineCommand({
  name: 'list',
  summary: 'Every automatic certificate: its site, its state, when it ends and why its last order failed',
  usage: '',
  parse: () => ({}),
  run: (ctx) => listing(ctx),
});

const renew = defineCommand({
  name: 'renew',
  summary: 'Order now (due or not) the certificate of one site (--site HOST), or of every site with automatic SSL',
  usage: '[--site HOST]',
  options: { site: { type: 'string' } },
  parse: ({ values }) => ({ site: values.site === undefined ? undefined : v.domainName(String(values.site), 'site') }),
  async run(ctx, input: { site?: string }) {
    await withCertificates(ctx, (service) => service.renewNow(input.site));
    return listing(ctx);
  },
});

export const certsCommands: CommandGroup = {
  name: 'certs',
  summary: 'Automatic certificates (ACME): list, renew now, reinstall',
  commands: [
    list,
    renew,
    syncCommand(
      webSyncStep,
      "Install again on the web server what it lacks of the panel's sites, their certificates included (the same repair as `web sync`)",
    ),
  ],
};
