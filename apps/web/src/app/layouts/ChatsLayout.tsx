import { ActionIcon } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ChatShareContext, ChatsSidebar, UndoToast, useChatListEvents } from '../../features/chats/index.ts';
import { ShareDialog } from '../../features/shares/index.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { Tooltip } from '../../ui/DeferredFloating.tsx';
import { LazyDrawer } from '../../ui/LazyDrawer.tsx';
import { setUi, useUiFlag } from '../../ui/uiStore.ts';
import classes from './ChatsLayout.module.css';
import { DefaultShell } from './DefaultLayout.tsx';

/** Below the md breakpoint (960 px) the chats list is a drawer. */
export const CHATS_MOBILE_QUERY = '(max-width: 59.99em)';

/** The default layout with the chats list beside the page (docs/ARCHITECTURE.md#shell-routes-and-guards "chats sidebar"). */
export default function ChatsLayout() {
  return (
    <DefaultShell>
      <ChatsFrame />
    </DefaultShell>
  );
}

/** Inside the shell (its query client): the list, the page and the socket's list updates. */
function ChatsFrame() {
  const { t } = useTranslation();
  useChatListEvents();
  const open = useUiFlag('chatSidebarModel');
  const mobile = useMediaQuery(CHATS_MOBILE_QUERY, false, { getInitialValueInEffect: false }) === true;
  const { pathname } = useLocation();
  const firstRender = useRef(true);

  // On a phone the list starts closed (it would cover the chat), and closes after a navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path changes only
  useLayoutEffect(() => {
    if (mobile && (firstRender.current || open)) setUi({ chatSidebarModel: false });
    firstRender.current = false;
  }, [pathname, mobile]);

  const close = () => setUi({ chatSidebarModel: false });

  return (
    <>
      <div className={classes.frame}>
        {!mobile && open ? (
          <aside className={classes.list} aria-label={t('nav.chats')}>
            <ChatsSidebar onCollapse={close} />
          </aside>
        ) : null}
        {mobile ? (
          <LazyDrawer
            opened={open}
            onClose={close}
            size="85%"
            padding={0}
            title={t('nav.chats')}
            classNames={{
              content: classes.drawerContent,
              body: classes.drawerBody,
              header: classes.drawerHeader,
            }}
          >
            <ChatsSidebar onNavigate={close} />
          </LazyDrawer>
        ) : null}
        <section className={classes.content} data-list-closed={(!open && !mobile) || undefined}>
          {!open && !mobile ? (
            <Tooltip label={t('pages.chats.show_list')} withArrow>
              <ActionIcon
                variant="default"
                className={classes.reopen}
                onClick={() => setUi({ chatSidebarModel: true })}
                aria-label={t('pages.chats.show_list')}
              >
                <IconLayoutSidebarLeftExpand size={18} stroke={1.7} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          {/* The chat header's "Share" (features/shares builds on features/chats, not the other way). */}
          <ChatShareContext.Provider value={ShareDialog}>
            <Outlet />
          </ChatShareContext.Provider>
        </section>
      </div>
      <UndoToast />
    </>
  );
}
