import { DEMO } from '../../seed/demo-seed.ts';
import { type CommandGroup, defineCommand } from '../command.ts';

const demo = defineCommand({
  name: 'demo',
  summary: 'Create the demo brand, account, users and resources (idempotent: changed passwords are kept)',
  usage: '',
  // The runtime seeds on opening; the command only reports.
  seedDemo: true,
  parse: () => ({}),
  async run({ admin }) {
    const brands = await admin.listBrands();
    const effective = [...brands].sort((a, b) => b.is_default - a.is_default || a.id - b.id)[0];
    // The placeholder brand an earlier command created must not shadow the demo brand, which the
    // seed declares the default.
    if (effective?.slug === 'default' && brands.some((b) => b.slug === 'demo')) await admin.setDefaultBrand('demo');
    return {
      json: { domain: DEMO.domain, users: [DEMO.admin.username, DEMO.viewer.username] },
      text: [
        `Demo data ready on domain ${DEMO.domain}:`,
        `  ${DEMO.admin.username} / ${DEMO.admin.password}   (full access)`,
        `  ${DEMO.viewer.username} / ${DEMO.viewer.password}   (read-only on ${DEMO.domain})`,
      ].join('\n'),
    };
  },
});

export const seedCommands: CommandGroup = {
  name: 'seed',
  summary: 'Demo data',
  commands: [demo],
};
