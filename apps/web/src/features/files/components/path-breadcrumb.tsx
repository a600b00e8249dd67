import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/use-translation';
import { pathCrumbs } from '../lib/file-paths';

/**
 * The trail from the root to the folder shown: each folder above it is a link (so Tab and Enter
 * reach it, and the browser's back button returns), the folder shown is the current page.
 */
export function PathBreadcrumb({
  rootLabel,
  path,
  linkTo,
}: {
  /** The root's name: the FTP account's login, or the home. */
  rootLabel: string;
  path: string;
  /** The address of the view on another folder. */
  linkTo: (path: string) => string;
}) {
  const { t } = useTranslation();
  const steps = [{ name: rootLabel, path: '' }, ...pathCrumbs(path)];
  return (
    <nav aria-label={t('files.path_label')} data-testid="files-path">
      <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap', rowGap: 4 }}>
        {steps.map((step, index) => {
          const label = (
            <>
              {index === 0 ? <IconHome size={14} aria-hidden style={{ verticalAlign: -2, marginRight: 4 }} /> : null}
              {step.name}
            </>
          );
          const style = { overflowWrap: 'anywhere' } as const;
          return index === steps.length - 1 ? (
            <Text key={step.path} size="sm" fw={600} aria-current="page" style={style}>
              {label}
            </Text>
          ) : (
            <Anchor key={step.path} component={Link} to={linkTo(step.path)} size="sm" style={style}>
              {label}
            </Anchor>
          );
        })}
      </Breadcrumbs>
    </nav>
  );
}
