import { runCli } from '../../src/cli/run-cli.ts';

/** The CLI in-process, configured only through `env` (no stdin): its exit code and what it printed. */
export async function runPanel(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    readStdin: async () => '',
    env,
  });
  return { code, stdout, stderr };
}
