import { Button, Group, Stack, Stepper, Text } from '@mantine/core';
import type { Subdomain } from '@panel247/contract/hosting';
import type { InstallJob } from '@panel247/contract/installer';
import type { PermissionSetData } from '@panel247/contract/permissions';
import { IconArrowLeft, IconArrowRight, IconDownload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useCreateDatabase } from '../../../api/create-database';
import { reloadPermissionSet } from '../../../api/get-permission-set';
import { databaseQueriesKey, useDatabases } from '../../../api/list-databases';
import { AppModal } from '../../../components/app-modal';
import { ApiError } from '../../../lib/api-client';
import { fieldErrorRecord } from '../../../lib/form-errors';
import { notifyError, notifyErrorText, translateError } from '../../../lib/notify';
import { newPassword } from '../../../lib/password';
import { usePermissionRecheck } from '../../../lib/use-permission-recheck';
import { useTranslation } from '../../../lib/use-translation';
import { useInstallJob } from '../api/get-install-job';
import { useInstallApplication } from '../api/install-application';
import { useApplications } from '../api/list-applications';
import { useSubdomains } from '../api/list-subdomains';
import { siteHost, sortSites } from '../lib/hosting-rows';
import {
  chosenDatabase,
  type DatabaseStepState,
  databaseRules,
  type InstallerStep,
  installerAllowed,
  installPayload,
  stepErrors,
  stepOfField,
} from '../lib/installer-rules';
import { initialInstallerState, installerReducer } from '../lib/installer-state';
import { InstallErrorModal, type InstallFailure } from './install-error-modal';
import { InstallerAppStep } from './installer-app-step';
import { InstallerConfigStep } from './installer-config-step';
import { InstallerProgress, InstallerSuccess } from './installer-job';
import { InstallerPathStep } from './installer-path-step';
import { InstallerSiteStep } from './installer-site-step';

/** What the installer is open for: any site (step 0 asks), or the site of the row it was opened from. */
export interface InstallerTarget {
  site: Subdomain | null;
}

/**
 * The application installer (spec sections 4-6 and 8): a linear stepper of four steps — site,
 * application, path and database, configuration and install — then the job's progress. Its state
 * lives only while it is open, so closing resets it.
 */
export function InstallerModal({
  target,
  onClose,
  set,
}: {
  target: InstallerTarget | null;
  onClose: () => void;
  set: PermissionSetData;
}) {
  return target ? <Installer target={target} onClose={onClose} set={set} /> : null;
}

function Installer({ target, onClose, set }: { target: InstallerTarget; onClose: () => void; set: PermissionSetData }) {
  const { t, i18n } = useTranslation();
  const serviceId = set.id;
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(installerReducer, target.site?.id ?? null, initialInstallerState);

  // Without the three action rights the installer says so once and closes: at opening (the set is
  // asked for again), whenever the cached set loses them, and just before installing.
  const refused = useRef(false);
  const refuse = useCallback(() => {
    if (refused.current) return;
    refused.current = true;
    notifyErrorText('main.no_permission');
    onClose();
  }, [onClose]);
  const allowed = installerAllowed(set.permissions);
  // mounted only while the dialog is open
  const refusedOnOpen = usePermissionRecheck(true, serviceId, (fresh) => installerAllowed(fresh.permissions), onClose);
  useEffect(() => {
    if (!allowed || refusedOnOpen) refuse();
  }, [allowed, refusedOnOpen, refuse]);

  const sites = useSubdomains(serviceId);
  const sortedSites = useMemo(() => sortSites(sites.data ?? []), [sites.data]);
  const site = target.site ?? sortedSites.find((item) => item.id === state.siteId) ?? null;
  // With only one site there is nothing to choose: step 0 comes with it chosen.
  const onlySite = sortedSites.length === 1 ? sortedSites[0] : undefined;
  useEffect(() => {
    if (onlySite && state.siteId === null) dispatch({ type: 'site', id: onlySite.id });
  }, [onlySite, state.siteId]);
  const apps = useApplications(i18n.language);
  const app = apps.data?.find((item) => item.id === state.appId) ?? null;
  const databases = useDatabases(serviceId);
  const database: DatabaseStepState | null = useMemo(() => {
    if (!databases.data) return null;
    const rules = databaseRules(databases.data);
    return { rules, ...chosenDatabase(rules, databases.data.ddbb, state) };
  }, [databases.data, state]);

  const createDatabase = useCreateDatabase(serviceId);
  const install = useInstallApplication(serviceId);
  const [job, setJob] = useState<InstallJob | null>(null);
  const followed = useInstallJob(job);
  const current = followed.data ?? job;
  const done = current?.status === 'done';
  const jobFailed = current !== null && (current.status === 'failed' || followed.isError);
  const running = current !== null && !done && !jobFailed;
  const [failure, setFailure] = useState<InstallFailure | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // the installed application's tables count in the database sizes
    if (done) void queryClient.invalidateQueries({ queryKey: databaseQueriesKey(serviceId) });
  }, [done, queryClient, serviceId]);

  const translated = (errors: Record<string, string>) =>
    Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, t(key)]));

  const context = { siteId: state.siteId, app, subpath: state.subpath, database, config: state.config };

  const next = () => {
    const errors = stepErrors(state.step, context);
    if (Object.keys(errors).length > 0)
      dispatch({ type: 'errors', errors: { ...state.errors, ...translated(errors) } });
    else dispatch({ type: 'next' });
  };

  /** A refused install: field errors under their fields (on the step that holds them), the rest in the dialog. */
  const showInstallError = (error: unknown) => {
    if (error instanceof ApiError && error.sessionLost) return;
    const placed: Record<string, string> = {};
    const unplaced: string[] = [];
    let step: InstallerStep | undefined;
    for (const [field, message] of Object.entries(fieldErrorRecord(error))) {
      const at = stepOfField(field, app, state.firstStep);
      if (at === null) {
        unplaced.push(message);
      } else {
        placed[field] = message;
        step = step === undefined ? at : (Math.min(step, at) as InstallerStep);
      }
    }
    if (step !== undefined) {
      notifyError(error);
      dispatch({ type: 'errors', errors: placed, step });
    }
    if (step === undefined || unplaced.length > 0) {
      setFailure({
        title: t('installer.error_title'),
        message: unplaced.length > 0 ? unplaced.join('\n') : translateError(error),
      });
    }
  };

  const runInstall = async () => {
    if (!app || state.siteId === null) return;
    const errors = stepErrors(3, context);
    if (Object.keys(errors).length > 0) {
      dispatch({ type: 'errors', errors: { ...state.errors, ...translated(errors) } });
      return;
    }
    setBusy(true);
    try {
      let fresh: PermissionSetData;
      try {
        fresh = await reloadPermissionSet(queryClient, serviceId);
      } catch (error) {
        notifyError(error);
        return;
      }
      if (!installerAllowed(fresh.permissions)) {
        refuse();
        return;
      }
      let databaseId = database?.databaseId ?? null;
      if (app.isBBDDApplication && database?.newDatabase) {
        try {
          // Nobody types this password: "show password" in the databases view reads it.
          const created = await createDatabase.mutateAsync(newPassword());
          databaseId = created.database.id;
          dispatch({ type: 'databaseCreated', id: databaseId });
        } catch (error) {
          if (!(error instanceof ApiError && error.sessionLost)) {
            setFailure({ title: t('installer.database_failed'), message: translateError(error) });
          }
          return;
        }
      }
      try {
        setJob(
          await install.mutateAsync(
            installPayload({ siteId: state.siteId, app, databaseId, subpath: state.subpath, config: state.config }),
          ),
        );
      } catch (error) {
        showInstallError(error);
      }
    } finally {
      setBusy(false);
    }
  };

  const jobFailure: InstallFailure | null = !jobFailed
    ? null
    : current?.status === 'failed'
      ? {
          title: current.error?.name || t('installer.error_title'),
          message: current.error?.message || t('errors.generic'),
        }
      : { title: t('installer.error_title'), message: translateError(followed.error) };
  const shownFailure = failure ?? jobFailure;
  const accept = () => {
    setFailure(null);
    // back to the configuration, to change something and try again
    if (jobFailed) setJob(null);
  };

  // Keyboard users land on the new step's first field, not on the button they pressed.
  const stepContent = useRef<HTMLFieldSetElement>(null);
  const shownStep = useRef(state.step);
  useEffect(() => {
    if (shownStep.current === state.step) return;
    shownStep.current = state.step;
    const root = stepContent.current;
    const field =
      root?.querySelector<HTMLElement>('[data-autofocus]') ??
      root?.querySelector<HTMLElement>('input:checked, input, select, textarea');
    field?.focus();
  }, [state.step]);

  // The sites can arrive after the dialog opened (the sites view no longer holds them all): the
  // first step's site then takes the focus, as it does when they are there on opening.
  const sitesLoaded = !sites.isPending;
  useEffect(() => {
    if (sitesLoaded && shownStep.current === 0)
      stepContent.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [sitesLoaded]);

  // The install button gives way to the progress, then to the result: the focus follows them.
  const body = useRef<HTMLFormElement>(null);
  const phase = done ? 'done' : running ? 'running' : 'form';
  useEffect(() => {
    if (phase === 'done') body.current?.querySelector<HTMLElement>('[data-testid="installer-close"]')?.focus();
    if (phase === 'running') body.current?.querySelector<HTMLElement>('[data-testid="installer-job"]')?.focus();
  }, [phase]);

  const nextWaits =
    (state.step === 0 && sites.isPending) ||
    (state.step === 1 && apps.isPending) ||
    (state.step === 2 && Boolean(app?.isBBDDApplication) && databases.isPending);
  const locked = busy || running;
  const labels = [
    t('installer.step_site'),
    t('installer.step_app'),
    t('installer.step_path'),
    t('installer.step_config'),
  ];
  const summary = [
    site ? siteHost(site.subdominio, site.referencePunycode) : null,
    app ? `${app.fullName} ${app.version}` : null,
  ]
    .filter(Boolean)
    .join(' · ');

  const steps = [
    <InstallerSiteStep
      key="site"
      sites={sortedSites}
      pending={sites.isPending}
      failed={sites.isError}
      value={state.siteId}
      error={state.errors.subdomainID}
      onChange={(id) => dispatch({ type: 'site', id })}
    />,
    <InstallerAppStep
      key="app"
      apps={apps.data ?? []}
      pending={apps.isPending}
      failed={apps.isError}
      value={state.appId}
      error={state.errors.applicationID}
      onChange={(chosen) => dispatch({ type: 'app', app: chosen })}
    />,
    <InstallerPathStep
      key="path"
      site={site}
      app={app}
      subpath={state.subpath}
      databases={databases.data?.ddbb ?? []}
      limit={databases.data ? databases.data.limit : 0}
      database={database}
      databasesPending={databases.isPending}
      errors={state.errors}
      onSubpath={(value) => dispatch({ type: 'subpath', value })}
      onNewDatabase={(on) => dispatch({ type: 'newDatabase', on })}
      onDatabase={(id) => dispatch({ type: 'database', id })}
    />,
    app ? (
      <InstallerConfigStep
        key="config"
        app={app}
        config={state.config}
        errors={state.errors}
        onChange={(name, value) => dispatch({ type: 'config', name, value })}
      />
    ) : null,
  ];

  return (
    <>
      <AppModal
        // steps aside while the error dialog is open, and comes back as it was
        opened={shownFailure === null}
        onClose={onClose}
        title={t('installer.title')}
        size="xl"
        closeOnClickOutside={!locked}
        data-testid="installer-modal"
      >
        {/* A form, so Enter in a field moves on (or installs) like the submit button does. */}
        <form
          ref={body}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (locked || done) return;
            if (state.step < 3) {
              if (!nextWaits) next();
            } else void runInstall();
          }}
        >
          <Stack gap="md">
            {summary ? (
              <Text size="sm" c="dimmed" data-testid="installer-summary">
                {summary}
              </Text>
            ) : null}
            <Stepper active={done ? 4 : state.step} size="sm" data-testid="installer-stepper">
              {labels.map((label, index) => (
                <Stepper.Step
                  key={label}
                  label={label}
                  aria-current={!done && index === state.step ? 'step' : undefined}
                  data-testid={`installer-step-${index}`}
                >
                  {/* nothing to change while the install runs */}
                  <fieldset
                    ref={stepContent}
                    disabled={locked}
                    style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}
                    data-testid="installer-step-content"
                  >
                    {steps[index]}
                  </fieldset>
                </Stepper.Step>
              ))}
              <Stepper.Completed>
                {current && done ? (
                  <InstallerSuccess job={current} appName={app?.fullName ?? ''} onClose={onClose} />
                ) : null}
              </Stepper.Completed>
            </Stepper>
            {done ? null : running && current ? (
              <InstallerProgress job={current} appName={app?.fullName ?? ''} />
            ) : (
              <Group justify="space-between">
                <div>
                  {state.step > state.firstStep ? (
                    <Button
                      variant="default"
                      leftSection={<IconArrowLeft size={16} aria-hidden />}
                      onClick={() => dispatch({ type: 'back' })}
                      disabled={locked}
                      data-testid="installer-back"
                    >
                      {t('installer.back')}
                    </Button>
                  ) : null}
                </div>
                <Group gap="sm">
                  <Button variant="default" onClick={onClose} disabled={locked}>
                    {t('main.cancel')}
                  </Button>
                  {state.step < 3 ? (
                    <Button
                      rightSection={<IconArrowRight size={16} aria-hidden />}
                      type="submit"
                      disabled={nextWaits}
                      data-testid="installer-next"
                    >
                      {t('installer.next')}
                    </Button>
                  ) : (
                    <Button
                      leftSection={<IconDownload size={16} aria-hidden />}
                      type="submit"
                      loading={locked}
                      data-testid="installer-install"
                    >
                      {t('installer.install')}
                    </Button>
                  )}
                </Group>
              </Group>
            )}
          </Stack>
        </form>
      </AppModal>
      <InstallErrorModal failure={shownFailure} onAccept={accept} />
    </>
  );
}
