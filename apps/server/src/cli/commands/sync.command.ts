import type { CommandGroup } from '../command.ts';
import { syncAllCommand } from '../sync-step.ts';
import { databasesSyncStep } from './databases.command.ts';
import { dnsSyncStep } from './dns.command.ts';
import { ftpSyncStep } from './ftp.command.ts';
import { mailSyncStep } from './mail.command.ts';
import { usersSyncStep } from './users.command.ts';
import { webSyncStep } from './web.command.ts';

export const syncCommands: CommandGroup = {
  name: 'sync',
  summary: 'Every driver reconciled with the panel at once',
  // Users first: FTP's view and folders and the PHP pools name them.
  commands: [syncAllCommand([usersSyncStep, dnsSyncStep, mailSyncStep, ftpSyncStep, databasesSyncStep, webSyncStep])],
  defaultCommand: 'all',
};
