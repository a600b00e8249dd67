import { Alert, NativeSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { HostedDatabase } from '@panel247/contract/databases';
import type { Subdomain } from '@panel247/contract/hosting';
import type { HostingApplication } from '@panel247/contract/installer';
import { ListSkeleton } from '../../../components/list-skeleton';
import { useTranslation } from '../../../lib/use-translation';
import { type DatabaseStepState, installAddress, installFolder } from '../lib/installer-rules';

/**
 * Step 2: the path under the site's folder and, for an application that needs one, its database:
 * a new one (forced without databases, off and fixed at the plan's limit) or an existing one (the
 * last is preselected).
 */
export function InstallerPathStep({
  site,
  app,
  subpath,
  databases,
  limit,
  database,
  databasesPending,
  errors,
  onSubpath,
  onNewDatabase,
  onDatabase,
}: {
  site: Subdomain | null;
  app: HostingApplication | null;
  subpath: string;
  databases: HostedDatabase[];
  limit: number | null;
  database: DatabaseStepState | null;
  databasesPending: boolean;
  errors: Record<string, string>;
  onSubpath: (value: string) => void;
  onNewDatabase: (on: boolean) => void;
  onDatabase: (id: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <TextInput
        label={t('installer.subpath')}
        description={t('installer.subpath_hint')}
        value={subpath}
        onChange={(event) => onSubpath(event.currentTarget.value)}
        error={errors.subpath}
        maxLength={255}
        autoComplete="off"
        spellCheck={false}
        data-autofocus
        data-testid="installer-subpath"
      />
      {site ? (
        <Text size="sm" data-testid="installer-target">
          {t('installer.target', { folder: installFolder(site, subpath), url: installAddress(site, subpath) })}
        </Text>
      ) : null}
      {app?.isBBDDApplication ? (
        databasesPending ? (
          <ListSkeleton rows={2} testId="installer-database-skeleton" />
        ) : database === null ? (
          <Alert color="red" variant="light" data-testid="installer-database-error">
            {errors.mysqlID ?? t('installer.databases_unavailable')}
          </Alert>
        ) : database.rules.impossible ? (
          <Alert color="red" variant="light" data-testid="installer-database-error">
            {t('installer.database_impossible')}
          </Alert>
        ) : (
          <Stack gap="sm" data-testid="installer-database">
            <Switch
              label={t('installer.new_database')}
              description={
                database.rules.newForced
                  ? t('installer.new_database_forced')
                  : database.rules.newBlocked
                    ? t('installer.new_database_blocked', { limit })
                    : t('installer.new_database_hint')
              }
              checked={database.newDatabase}
              disabled={database.rules.newForced || database.rules.newBlocked}
              onChange={(event) => onNewDatabase(event.currentTarget.checked)}
              error={database.newDatabase ? errors.mysqlID : undefined}
              data-testid="installer-new-database"
            />
            {database.newDatabase ? null : (
              <NativeSelect
                label={t('installer.database')}
                value={database.databaseId === null ? '' : String(database.databaseId)}
                onChange={(event) => onDatabase(Number(event.currentTarget.value))}
                data={databases.map((item) => ({ value: String(item.id), label: item.bbdd }))}
                error={errors.mysqlID}
                required
                data-testid="installer-database-select"
              />
            )}
          </Stack>
        )
      ) : null}
    </Stack>
  );
}
