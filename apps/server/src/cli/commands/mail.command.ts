import { createMailDriver } from '../../drivers/mail/create-mail-driver.ts';
import { createDkimSigning } from '../../modules/mail/dkim-signing.ts';
import { syncMail } from '../../modules/mail/mail-sync.ts';
import { loadSecretKey } from '../../secret-key.ts';
import { type CommandGroup, defineCommand } from '../command.ts';
import { repairResult, type SyncStep, syncCommand } from '../sync-step.ts';

const purge = defineCommand({
  name: 'purge',
  summary: 'Remove the mail of deleted mailboxes kept longer than PANEL_MAIL_KEEP_DAYS (run it daily)',
  usage: '',
  parse: () => ({}),
  async run({ config, now }) {
    const removed = await createMailDriver(config).purgeDeleted(now());
    return { json: { removed, keepDays: config.mail.keepDays }, text: `${removed} kept mailbox(es) removed.` };
  },
});

const FOLDER_PROBLEMS = {
  extra: 'folder of no mailbox (kept aside as a deleted mailbox’s, see mail purge)',
  owner: 'files not owned by the mail user',
} as const;

const FILTER_PROBLEMS = {
  missing: 'Sieve script of its autoresponder or forwarding missing or not active',
  changed: 'Sieve script differs from its autoresponder and forwarding',
  extra: 'Sieve script of the panel left over (no autoresponder nor forwarding)',
} as const;

export const mailSyncStep: SyncStep = {
  name: 'mail',
  async run({ runtime, config, now }, options) {
    const driver = createMailDriver(config);
    const drift = await syncMail(runtime.db, driver, { ...options, now: now() }, config.agent.node);
    const all = [...drift.views, ...drift.folders, ...drift.filters];
    // The DKIM signer holds exactly the active keys of the mail domains (its files rewritten).
    const signing = createDkimSigning(runtime.db, config, loadSecretKey(config));
    const dkim = await signing.sync(options);
    return {
      json: {
        driver: driver.kind,
        dryRun: options.dryRun,
        ...drift,
        dkim: { driver: signing.driverKind, domains: dkim },
      },
      headers: ['WHAT', 'DRIFT', 'RESULT'],
      rows: [
        ...drift.views.map((view) => [view.view, 'view missing or incomplete', repairResult(options, view)]),
        ...drift.folders.map((folder) => [
          folder.folder,
          FOLDER_PROBLEMS[folder.problem],
          repairResult(options, folder),
        ]),
        ...drift.filters.map((filter) => [
          filter.folder,
          FILTER_PROBLEMS[filter.problem],
          repairResult(options, filter),
        ]),
        ...dkim.map((domain) => [
          domain,
          'DKIM keys of the signer differ from the panel’s',
          repairResult(options, { repaired: !options.dryRun }),
        ]),
      ],
      summary: `The mail views and the mailbox folders under ${config.mail.root ?? 'the mail root'} checked.`,
      failed: options.dryRun ? 0 : all.filter((entry) => !entry.repaired).length,
    };
  },
};

export const mailCommands: CommandGroup = {
  name: 'mail',
  summary: 'Mail hosting: reconcile the mail system with the panel, housekeeping of deleted mailboxes',
  commands: [
    syncCommand(
      mailSyncStep,
      'Put back the SQL views Postfix and Dovecot read, set aside folders of mailboxes the panel does not have, give mailbox files back to the mail user, write the mailboxes’ Sieve scripts from their autoresponder and forwarding, give the DKIM signer the active keys, and report what had drifted',
    ),
    purge,
  ],
};
