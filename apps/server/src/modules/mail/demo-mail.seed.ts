import type { Db } from '../../db/database.ts';
import { hashPassword } from '../auth/password-hasher.ts';
import { mailRepository } from './mail.repository.ts';

/** A few mailboxes and aliases on demo.test and mail-demo.test, once. */
export async function seedDemoMail(db: Db, ids: { demo: number; mailDemo: number }, now: number): Promise<void> {
  if ((await mailRepository.mailboxes(db, ids.demo)).length > 0) return;
  const hash = `{ARGON2ID}${await hashPassword('panel247-mail')}`;
  for (const [serviceId, local, quotaMb] of [
    [ids.demo, 'info', 2048],
    [ids.demo, 'ventas', 1024],
    [ids.demo, 'soporte', 1024],
    [ids.mailDemo, 'hola', 512],
  ] as const) {
    await mailRepository.insertMailbox(db, {
      service_id: serviceId,
      local_part: local,
      password_hash: hash,
      quota_bytes: quotaMb * 1024 * 1024,
      created_at: now,
    });
  }
  await mailRepository.insertAlias(db, {
    service_id: ids.demo,
    local_part: 'contacto',
    targets: 'info@demo.test,ventas@demo.test',
    created_at: now,
  });
  await mailRepository.insertAlias(db, {
    service_id: ids.demo,
    local_part: 'facturas',
    targets: 'ventas@demo.test,gestoria@example.com',
    created_at: now,
  });
  await mailRepository.insertAlias(db, {
    service_id: ids.mailDemo,
    local_part: '',
    targets: 'hola@mail-demo.test',
    created_at: now,
  });
}
