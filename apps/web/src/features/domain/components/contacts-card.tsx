import { Accordion, ActionIcon, Card, Center, Menu, SimpleGrid, Text, Title } from '@mantine/core';
import { isActionable, isVisible } from '@panel247/contract/constants';
import type { Contact, DomainData } from '@panel247/contract/domain';
import { CONTACT_ROLES, type ContactRole, identLabelKey } from '@panel247/contract/domain-rules';
import type { PermissionMap } from '@panel247/contract/permissions';
import { IconDotsVertical, IconEdit } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { lazyDialog } from '../../../components/lazy-dialog';
import { useTranslation } from '../../../lib/use-translation';
import { contactDisplayName } from '../lib/contact-form';

const ContactEditModal = lazyDialog(() => import('./contact-edit-modal').then((m) => m.ContactEditModal), {
  role: null,
});

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {value || '—'}
      </Text>
    </div>
  );
}

/** The read-only contact shown when its row opens. */
function ContactDetails({ contact, role }: { contact: Contact; role: ContactRole }) {
  const { t } = useTranslation();
  const isOrg = contact.type === 'organization';
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs" data-testid={`contact-details-${role}`}>
      <Field
        label={t('domain.contact.kind')}
        value={isOrg ? t('domain.contact.organization') : t('domain.contact.individual')}
      />
      {isOrg ? <Field label={t('domain.contact.org_name')} value={contact.orgName} /> : null}
      <Field
        label={t('domain.contact.person')}
        value={`${contact.firstName} ${contact.lastName}`.trim()}
        testId={`contact-${role}-person`}
      />
      <Field label={t(identLabelKey(isOrg))} value={contact.vat} testId={`contact-${role}-ident`} />
      <Field label={t('domain.contact.email')} value={contact.email} />
      <Field label={t('domain.contact.phone')} value={contact.phone} />
      <Field label={t('domain.contact.address')} value={contact.address} testId={`contact-${role}-address`} />
      <Field
        label={t('domain.contact.locality')}
        value={[contact.postalCode, contact.city, contact.state, contact.country].filter(Boolean).join(', ')}
        testId={`contact-${role}-locality`}
      />
    </SimpleGrid>
  );
}

/** Registrant editing needs domain_ownercontacts action; admin, billing and tech need domain_contacts action. */
export function canEditRole(role: ContactRole, permissions: PermissionMap): boolean {
  return isActionable(role === 'registrant' ? permissions.domain_ownercontacts : permissions.domain_contacts);
}

export function ContactsCard({ id, data, permissions }: { id: number; data: DomainData; permissions: PermissionMap }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<ContactRole | null>(null);
  const close = useCallback(() => setEditing(null), []);
  const ownerVisible = isVisible(permissions.domain_ownercontacts);
  const roles = CONTACT_ROLES.filter((role) =>
    role === 'registrant' ? ownerVisible : isVisible(permissions.domain_contacts),
  );

  return (
    <Card withBorder padding="lg" data-testid="contacts-card">
      <Title order={2} size="h4" mb="xs">
        {t('domain.contact.title')}
      </Title>
      {roles.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('domain.contact.none')}
        </Text>
      ) : (
        <Accordion variant="separated" chevronPosition="left" data-testid="contacts-list">
          {roles.map((role) => {
            const contact = data[role];
            return (
              <Accordion.Item key={role} value={role} data-testid={`contact-row-${role}`}>
                <Center>
                  <Accordion.Control data-testid={`contact-open-${role}`}>
                    <Text size="xs" c="dimmed">
                      {t(`domain.contact.role_${role}`)}
                    </Text>
                    <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid={`contact-name-${role}`}>
                      {contactDisplayName(contact)}
                    </Text>
                  </Accordion.Control>
                  {canEditRole(role, permissions) ? (
                    <Menu position="bottom-end" withArrow shadow="md">
                      <Menu.Target>
                        <ActionIcon
                          variant="subtle"
                          mr="xs"
                          aria-label={t('domain.contact.menu', { role: t(`domain.contact.role_${role}`) })}
                          data-testid={`contact-menu-${role}`}
                        >
                          <IconDotsVertical size={18} aria-hidden />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item
                          leftSection={<IconEdit size={16} aria-hidden />}
                          onClick={() => setEditing(role)}
                          data-testid={`contact-edit-${role}`}
                        >
                          {t('domain.contact.edit')}
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  ) : null}
                </Center>
                <Accordion.Panel>
                  <ContactDetails contact={contact} role={role} />
                </Accordion.Panel>
              </Accordion.Item>
            );
          })}
        </Accordion>
      )}
      <ContactEditModal
        id={id}
        data={data}
        role={editing}
        allowed={editing !== null && canEditRole(editing, permissions)}
        ownerVisible={ownerVisible}
        onClose={close}
      />
    </Card>
  );
}
