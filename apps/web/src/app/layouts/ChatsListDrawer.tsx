import { Drawer } from '@mantine/core';
import { ChatsSidebar } from '../../features/chats/components/ChatsSidebar.tsx';
import classes from './ChatsLayout.module.css';

/** The chats list as a drawer, on a phone: its own chunk, so wide screens never fetch a modal. */
export default function ChatsListDrawer({
  opened,
  title,
  onClose,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
}) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      size="85%"
      padding={0}
      title={title}
      classNames={{
        content: classes.drawerContent,
        body: classes.drawerBody,
        header: classes.drawerHeader,
      }}
    >
      <ChatsSidebar onNavigate={onClose} />
    </Drawer>
  );
}
