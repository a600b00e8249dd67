// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { mailFolderName } from './mail-folder-name';

describe('mail folder name', () => {
  it('shows a Maildir++ folder as mail programs do', () => {
    expect(mailFolderName('.Sent')).toBe('Sent');
    expect(mailFolderName('.Archive.2024')).toBe('Archive / 2024');
    expect(mailFolderName('.Tom &- Jerry')).toBe('Tom & Jerry');
  });

  it('decodes modified UTF-7 (what Dovecot writes for names that are not ASCII)', () => {
    expect(mailFolderName('.Elementos &AOk-nviados')).toBe('Elementos énviados');
    expect(mailFolderName('.&ZeVnLIqe-')).toBe('日本語');
    expect(mailFolderName('.Paperera.&AMc-')).toBe('Paperera / Ç');
  });
});
