import { ActionIcon, CopyButton } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from '../lib/i18n/index.ts';
import { Tooltip } from './DeferredFloating.tsx';

/** An icon button that copies `value`, saying "copied" for a moment. */
export function CopyIconButton({
  value,
  label,
  iconSize,
}: {
  value: string;
  label: string;
  iconSize: number;
}) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('common.copied') : label} withArrow>
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'neutral.6'}
            size="sm"
            onClick={copy}
            aria-label={label}
          >
            {copied ? <IconCheck size={iconSize} /> : <IconCopy size={iconSize} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
