import { CHECKOUT, type Step } from './context.ts';
import { run } from './system.ts';

/** The installed command-line tool, as the guide runs it: from the checkout, the installed settings found by itself. */
function panel(args: string[], allowedCodes: number[] = []) {
  return run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/panel.ts', ...args], {
    allowedCodes,
    cwd: CHECKOUT,
  });
}

interface ProbePart {
  part: string;
  name: string;
  state: 'made' | 'repaired' | 'kept';
}

/**
 * The provider's probe service (`panel doctor probes`, from the PANEL_DOCTOR_* logins of the
 * settings step), so that doctor logs in, loads a PHP page and asks DNS as a customer would on a
 * machine that has no customer yet.
 */
export const probesStep: Step = {
  title: "doctor's probe service",
  async run({ say }) {
    const { stdout } = await panel(['doctor', 'probes', '--json']);
    const { parts } = JSON.parse(stdout) as { parts: ProbePart[] };
    const changed = parts.filter((part) => part.state !== 'kept');
    for (const part of changed) say(`${part.state} the probe ${part.part} ${part.name}`);
    if (changed.length === 0) say(`the probe service ${parts[0]?.name ?? ''} is as it should be`);
  },
};

/** `panel doctor` as the guide runs it: the installed configuration, every daemon called for real. */
export const doctorStep: Step = {
  title: 'doctor',
  async run({ say }) {
    const { code, stdout, stderr } = await panel(['doctor'], [1]);
    for (const line of `${stdout}${stderr}`.trimEnd().split('\n')) say(line);
    if (code !== 0) throw new Error('doctor found problems (above), each with its fix');
  },
};
