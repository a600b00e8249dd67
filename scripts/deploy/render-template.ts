/**
 * `npm run -s render-template -- deploy/<daemon>/<file>.template NAME=value …` prints the template
 * with every @NAME@ filled, for an operator writing Debian's configuration files from deploy/
 * (docs/OPERATIONS.md). Without values it lists the placeholders the template needs. A placeholder
 * left without a value is an error (exit 1) and nothing is printed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEPLOY, fillDeployTemplate, placeholdersOf } from '../daemons/deploy-template.ts';

function main(args: string[]): number {
  const [template, ...assignments] = args;
  if (!template || template === '--help') {
    process.stderr.write('usage: npm run -s render-template -- deploy/<daemon>/<file>.template NAME=value …\n');
    return template ? 0 : 1;
  }
  const file = path.resolve(template);
  if (!file.startsWith(`${DEPLOY}${path.sep}`)) {
    process.stderr.write(`${template}: not a template of deploy/\n`);
    return 1;
  }
  if (assignments.length === 0) {
    process.stdout.write(`${placeholdersOf(readFileSync(file, 'utf8')).join('\n')}\n`);
    return 0;
  }
  const values: Record<string, string> = {};
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    if (equals < 1) {
      process.stderr.write(`${assignment}: expected NAME=value\n`);
      return 1;
    }
    values[assignment.slice(0, equals)] = assignment.slice(equals + 1);
  }
  try {
    process.stdout.write(fillDeployTemplate(path.relative(DEPLOY, file), values));
    return 0;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
