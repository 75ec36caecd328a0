import { Anchor } from '@mantine/core';
import { IconBrain } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { Tooltip } from '../../../ui/DeferredFloating.tsx';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import classes from './UsedMemoryBadge.module.css';

/** Under an answer given the person's memories: says so, quietly, and opens Settings → Memory. */
export function UsedMemoryBadge() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  return (
    <Tooltip label={t('memory.badge.tooltip')} withArrow multiline w={260}>
      <Anchor
        component={Link}
        to={lp('/settings?tab=memory')}
        size="xs"
        c="dimmed"
        underline="hover"
        className={classes.badge}
        data-testid="used-memory"
      >
        <IconBrain size={13} aria-hidden />
        {t('memory.badge.label')}
      </Anchor>
    </Tooltip>
  );
}
