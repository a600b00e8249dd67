// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { folderProblem, modeProblem, nameProblem } from './file-checks';
import { folderFromInput, folderFromQuery } from './file-paths';

describe('typed values', () => {
  it('a name: required, no slash, not . or .., at most 255 bytes', () => {
    expect(nameProblem('')).toBe('validation.required');
    expect(nameProblem('index.html')).toBeNull();
    expect(nameProblem('a b (1).txt')).toBeNull();
    for (const bad of ['a/b', '.', '..', 'tab\there', 'é'.repeat(128)])
      expect(nameProblem(bad), bad).toBe('files.invalid_name');
  });

  it('permission bits: three octal digits, a leading 0 allowed, no special bits', () => {
    expect(modeProblem(' ')).toBe('validation.required');
    for (const good of ['644', '755', '0600', ' 700 ']) expect(modeProblem(good), good).toBeNull();
    for (const bad of ['999', '64', '4755', 'rwx', '1644']) expect(modeProblem(bad), bad).toBe('files.invalid_mode');
  });

  it('a destination folder: / is the root, outer slashes forgiven, no . or .. inside', () => {
    expect(folderFromInput('/')).toBe('');
    expect(folderFromInput('')).toBe('');
    expect(folderFromInput('/web/img/')).toBe('web/img');
    expect(folderFromInput('web/../etc')).toBeNull();
    expect(folderFromInput('web//img')).toBeNull();
    expect(folderProblem('/web')).toBeNull();
    expect(folderProblem('..')).toBe('files.invalid_folder');
    // the address falls back to the root rather than failing
    expect(folderFromQuery('../etc')).toBe('');
    expect(folderFromQuery(null)).toBe('');
  });
});
