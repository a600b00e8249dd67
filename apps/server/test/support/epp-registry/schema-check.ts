import { execFile } from 'node:child_process';
import path from 'node:path';

const ALL = path.join(import.meta.dirname, 'schemas', 'all.xsd');

/**
 * Checks an EPP document against the RFCs' schemas (RFC 5730-5733, 5910, 3915) with libxml2's
 * xmllint, independent of both the panel's client and the test registry. Answers the problems
 * found (none for a valid frame).
 */
export function schemaProblems(xml: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile('xmllint', ['--noout', '--nonet', '--schema', ALL, '-'], (error, _stdout, stderr) => {
      if (!error) return resolve([]);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(new Error('xmllint is missing: install libxml2-utils (scripts/install-system-deps.sh)'));
      }
      resolve(
        stderr
          .split('\n')
          .filter((line) => line.includes('error') || line.includes('fails'))
          .map((line) => line.replace(/^-:\d+: /, '')),
      );
    });
    child.stdin?.end(xml);
  });
}
