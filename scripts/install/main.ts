/**
 * The production installer (deploy/install.sh runs it as root on Debian 12): takes the provider's
 * names and addresses, then installs and configures every daemon from deploy/'s templates, the
 * panel's database and unit, and starts everything in an order that works with no customer yet.
 * Each step checks before it changes and says what it did, so a second run changes nothing and an
 * upgrade is the same command.
 */
import { createInterface } from 'node:readline/promises';
import { CHECKOUT, type InstallContext, type Step } from './context.ts';
import { daemonConfigsStep } from './daemon-configs.ts';
import { doctorStep, probesStep } from './doctor.ts';
import { mariadbAdminStep } from './mariadb.ts';
import { type Ask, OptionsError, readFlags, resolveOptions, USAGE } from './options.ts';
import { packagesStep } from './packages.ts';
import { phpMyAdminStep } from './phpmyadmin.ts';
import {
  daemonRolesStep,
  panelDatabaseStep,
  panelMigratedStep,
  pdnsDatabaseStep,
  roundcubeDatabaseStep,
} from './postgres.ts';
import { roundcubeStep } from './roundcube.ts';
import { startStep, unitsStep } from './services.ts';
import { groupStep, loadSecrets, panelEnvStep } from './settings.ts';

export const STEPS: readonly Step[] = [
  packagesStep,
  groupStep,
  panelDatabaseStep,
  pdnsDatabaseStep,
  roundcubeDatabaseStep,
  mariadbAdminStep,
  panelEnvStep,
  unitsStep,
  daemonConfigsStep,
  phpMyAdminStep,
  roundcubeStep,
  startStep,
  panelMigratedStep,
  daemonRolesStep,
  probesStep,
  doctorStep,
];

async function main(args: string[]): Promise<number> {
  if (readFlags(args).help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let ask: Ask | undefined;
  let terminal: ReturnType<typeof createInterface> | undefined;
  if (process.stdin.isTTY) {
    terminal = createInterface({ input: process.stdin, output: process.stdout });
    ask = (question) => (terminal as ReturnType<typeof createInterface>).question(question);
  }
  // the unit's WorkingDirectory: a panel elsewhere would get a unit that cannot start
  if (CHECKOUT !== '/opt/panel247') {
    throw new Error(`the panel must be in /opt/panel247 (panel247.service runs it from there), not ${CHECKOUT}`);
  }
  const options = await resolveOptions(args, ask).finally(() => terminal?.close());
  const say = (line: string) => process.stdout.write(`  ${line}\n`);
  const context: InstallContext = { options, secrets: loadSecrets(say), say, changedUnits: new Set() };
  for (const [index, step] of STEPS.entries()) {
    process.stdout.write(`[${index + 1}/${STEPS.length}] ${step.title}\n`);
    await step.run(context);
  }
  process.stdout.write(
    `Installed: https://${options.panelHost}/ (self-signed until a CA's certificate replaces it: docs/OPERATIONS.md, "The panel's own certificate")\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof OptionsError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`install failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
