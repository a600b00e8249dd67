// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  addTargetRow,
  canRemoveTargetRow,
  checkTargets,
  removeTargetRow,
  rowOfServerError,
  targetRowError,
  targetRowsFrom,
} from './target-rows';

describe('alias target rows', () => {
  it('adds rows; the first one cannot be removed', () => {
    const rows = addTargetRow(addTargetRow(['a@b.es']));
    expect(rows).toEqual(['a@b.es', '', '']);
    expect(canRemoveTargetRow(0)).toBe(false);
    expect(canRemoveTargetRow(1)).toBe(true);
    expect(removeTargetRow(rows, 0)).toEqual(rows);
    expect(removeTargetRow(['a@b.es', 'c@d.es', 'e@f.es'], 1)).toEqual(['a@b.es', 'e@f.es']);
  });

  it('checks one row on blur with the alias-target rule; an empty row is no error', () => {
    expect(targetRowError('')).toBeNull();
    expect(targetRowError('   ')).toBeNull();
    expect(targetRowError('info@demo.test')).toBeNull();
    expect(targetRowError(' user@[192.168.1.1] ')).toBeNull();
    expect(targetRowError('info@demo')).toBe('mail.invalid_target');
    expect(targetRowError('info')).toBe('mail.invalid_target');
    expect(targetRowError('a@b.c')).toBe('mail.invalid_target');
  });

  it('drops empty rows and needs at least one target', () => {
    expect(checkTargets(['info@demo.test', '', ' ventas@demo.test '])).toEqual({
      targets: ['info@demo.test', 'ventas@demo.test'],
      rowErrors: {},
      error: null,
    });
    expect(checkTargets(['', ' '])).toEqual({ targets: [], rowErrors: {}, error: 'mail.target_required' });
    expect(checkTargets(['ok@demo.test', 'bad']).rowErrors).toEqual({ 1: 'mail.invalid_target' });
  });

  it('makes rows from the comma-separated targets', () => {
    expect(targetRowsFrom('a@b.es,c@d.es')).toEqual(['a@b.es', 'c@d.es']);
    expect(targetRowsFrom('')).toEqual(['']);
  });

  it("puts the server's target error on the row it names", () => {
    expect(rowOfServerError(['a@b.es', 'x@nowhere.es'], 'x@nowhere.es is not valid')).toBe(1);
    expect(rowOfServerError(['a@b.es'], 'Invalid target')).toBe(0);
  });
});
