import { CHECKOUT, type Step } from './context.ts';
import { run } from './system.ts';

/** `panel doctor` as the guide runs it: the installed configuration, every daemon called for real. */
export const doctorStep: Step = {
  title: 'doctor',
  async run({ say }) {
    const { code, stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/panel.ts', 'doctor'],
      { allowedCodes: [1], cwd: CHECKOUT },
    );
    for (const line of `${stdout}${stderr}`.trimEnd().split('\n')) say(line);
    if (code !== 0) throw new Error('doctor found problems (above), each with its fix');
  },
};
