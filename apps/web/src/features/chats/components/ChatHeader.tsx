import type { Santito } from '@assistente/contracts';
import { ActionIcon, Button, Group, Title } from '@mantine/core';
import {
  IconAdjustmentsHorizontal,
  IconDots,
  IconFileTypeTxt,
  IconJson,
  IconLayoutSidebarLeftExpand,
  IconShare,
} from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { Menu, Tooltip } from '../../../ui/DeferredFloating.tsx';
import { setUi } from '../../../ui/uiStore.ts';
import classes from './ChatView.module.css';
import { SantitoHeader } from './ChatWelcome.tsx';
import { ConnectionBadge } from './ConnectionBadge.tsx';

interface ChatHeaderProps {
  title: string;
  santito: Pick<Santito, 'name' | 'avatar'> | null | undefined;
  /** A phone: the chats list is a drawer, opened from here. */
  mobile: boolean;
  /** Inside another site's iframe: no chats list, parameters or export. */
  embedded: boolean;
  paramsOpen: boolean;
  /** Offered only for a stored chat. */
  onExport: ((format: 'md' | 'json') => void) | null;
  /** Opens the share dialog; offered only for a stored chat of a person (not an embed's). */
  onShare?: (() => void) | null;
}

/** A chat's bar: its title and santito, the connection, the parameters toggle and the export menu. */
export function ChatHeader({
  title,
  santito,
  mobile,
  embedded,
  paramsOpen,
  onExport,
  onShare = null,
}: ChatHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className={classes.header}>
      <Group gap="xs" wrap="nowrap" className={classes.headerTitle}>
        {mobile && !embedded ? (
          <ActionIcon
            variant="subtle"
            color="neutral.7"
            onClick={() => setUi({ chatSidebarModel: true })}
            aria-label={t('pages.chats.show_list')}
            data-testid="open-chats-list"
          >
            <IconLayoutSidebarLeftExpand size={20} />
          </ActionIcon>
        ) : null}
        <Title order={1} size="h5" className={classes.title} data-testid="chat-title">
          {title}
        </Title>
        {santito ? <SantitoHeader santito={santito} /> : null}
      </Group>
      <Group gap={4} wrap="nowrap">
        <ConnectionBadge />
        {onShare && !embedded ? (
          mobile ? (
            <ActionIcon
              variant="subtle"
              color="neutral.7"
              onClick={onShare}
              aria-label={t('shares.share')}
              data-testid="chat-share"
            >
              <IconShare size={19} />
            </ActionIcon>
          ) : (
            <Button
              variant="subtle"
              color="neutral.7"
              size="compact-sm"
              leftSection={<IconShare size={16} />}
              onClick={onShare}
              data-testid="chat-share"
            >
              {t('shares.share')}
            </Button>
          )
        ) : null}
        {embedded ? null : (
          <Tooltip label={t('chats.params.title')} withArrow>
            <ActionIcon
              variant={paramsOpen ? 'light' : 'subtle'}
              color="neutral.7"
              onClick={() => setUi({ customParamsSidebar: !paramsOpen })}
              aria-label={t('chats.params.title')}
              aria-pressed={paramsOpen}
              data-testid="toggle-params"
            >
              <IconAdjustmentsHorizontal size={19} />
            </ActionIcon>
          </Tooltip>
        )}
        {onExport && !embedded ? (
          <Menu position="bottom-end" shadow="md" width={220}>
            <Menu.Target>
              <ActionIcon
                variant="subtle"
                color="neutral.7"
                aria-label={t('chats.menu')}
                data-testid="chat-menu"
              >
                <IconDots size={19} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{t('chats.export.title')}</Menu.Label>
              <Menu.Item leftSection={<IconFileTypeTxt size={16} />} onClick={() => onExport('md')}>
                {t('chats.export.markdown')}
              </Menu.Item>
              <Menu.Item leftSection={<IconJson size={16} />} onClick={() => onExport('json')}>
                {t('chats.export.json')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Group>
    </header>
  );
}
