import { runCli } from './run-cli.ts';

/** Reads stdin to its end (piped) or to the first newline (typed on a terminal). */
function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    let data = '';
    const finish = () => {
      stdin.pause();
      resolve(data);
    };
    stdin.setEncoding('utf8');
    stdin.on('data', (chunk: string) => {
      data += chunk;
      if (stdin.isTTY && data.includes('\n')) finish();
    });
    stdin.on('end', finish);
    stdin.on('error', reject);
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin,
  env: process.env,
});
process.exitCode = code;
