import { translate } from '../../i18n/messages.ts';
import { createDomainServices } from '../../modules/domain/create-domain-services.ts';
import { loadSecretKey } from '../../secret-key.ts';
import { type CommandGroup, defineCommand } from '../command.ts';
import { table, timestamp } from '../output.ts';

const scan = defineCommand({
  name: 'scan',
  summary:
    'Read the CDS/CDNSKEY of every domain hosted elsewhere that has a DS (validated DNS) and update the DS at the registry',
  usage: '',
  parse: () => ({}),
  async run({ runtime, config, now }) {
    const changes: string[] = [];
    const { domains } = createDomainServices(runtime.db, config, runtime.dnsDriver, loadSecretKey(config), now, {
      jobs: runtime.sender,
      events: {
        unsignFailed: () => undefined,
        cdsChanged: (change) =>
          changes.push(`${change.domain}: -[${change.removed.join(', ')}] +[${change.added.join(', ')}]`),
      },
    });
    const results = await domains.cdsScan.scanAll();
    const keyed = (outcome: string) => outcome === 'refused' || outcome === 'failed';
    return {
      json: { results, changes },
      text: `${table(
        ['DOMAIN', 'OUTCOME', 'CHECKED', 'DETAIL'],
        results.map((result) => [
          result.domain,
          result.outcome,
          timestamp(result.checkedAt),
          keyed(result.outcome) ? translate('en', result.detail) : result.detail.replace(/\n/g, '; '),
        ]),
      )}${changes.length > 0 ? `\n${changes.join('\n')}` : ''}`,
      exitCode: results.some((result) => result.outcome === 'failed') ? 1 : 0,
    };
  },
});

export const dnssecCommands: CommandGroup = {
  name: 'dnssec',
  summary: 'DNSSEC of domains hosted elsewhere: the CDS/CDNSKEY scan',
  commands: [scan],
};
