import { PROVIDER_TOKEN_NAME, ProviderTokensService } from '../../modules/provider/provider-tokens.service.ts';
import { CliError, type CommandContext, type CommandGroup, defineCommand } from '../command.ts';
import { table, timestamp } from '../output.ts';

const tokens = ({ runtime, now }: CommandContext) => new ProviderTokensService(runtime.db, now);

function tokenName(value: string): string {
  if (!PROVIDER_TOKEN_NAME.test(value))
    throw new CliError(`NAME ${JSON.stringify(value)} must be a-z, 0-9 and inner hyphens (63 at most)`);
  return value;
}

const add = defineCommand({
  name: 'add',
  summary: 'Make a provider token for the provisioning API (a billing system); it is shown this once',
  usage: 'NAME',
  positionals: ['NAME'],
  parse: ({ positionals }) => ({ name: tokenName(String(positionals[0])) }),
  async run(ctx, input: { name: string }) {
    const token = await tokens(ctx).add(input.name);
    return {
      json: { name: input.name, token },
      text: [
        `Provider token ${input.name} made. It is not shown again: put it in the billing system now`,
        '(WHMCS: the server’s Access Hash). Calls send it as "Authorization: Bearer <token>".',
        token,
      ].join('\n'),
    };
  },
});

const list = defineCommand({
  name: 'list',
  summary: 'The provider tokens: when each was made, last used and revoked',
  usage: '',
  parse: () => ({}),
  async run(ctx) {
    const all = await tokens(ctx).list();
    return {
      json: { tokens: all },
      text:
        all.length === 0
          ? 'No provider tokens.'
          : table(
              ['NAME', 'MADE', 'LAST USED', 'REVOKED'],
              all.map((token) => [
                token.name,
                timestamp(token.createdAt) ?? '',
                timestamp(token.lastUsedAt) ?? 'never',
                timestamp(token.revokedAt) ?? '',
              ]),
            ),
    };
  },
});

const revoke = defineCommand({
  name: 'revoke',
  summary: 'Revoke a provider token: its calls are refused (401) from now on',
  usage: 'NAME',
  positionals: ['NAME'],
  parse: ({ positionals }) => ({ name: tokenName(String(positionals[0])) }),
  async run(ctx, input: { name: string }) {
    await tokens(ctx).revoke(input.name);
    return { json: { revoked: input.name }, text: `Provider token ${input.name} revoked.` };
  },
});

export const providerTokenCommands: CommandGroup = {
  name: 'provider-token',
  summary: 'Provider tokens for the provisioning API (the provider’s billing system): add, list, revoke',
  commands: [add, list, revoke],
};
