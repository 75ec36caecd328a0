import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../lib/i18n/index.ts';
import {
  connectChannel,
  connectOutcome,
  MCP_CONNECTED_HEARD,
  MCP_CONNECTED_MESSAGE,
} from './connectMessage.ts';

/** Long enough to read that it worked, short enough not to be in the way. */
const CLOSE_AFTER_MS = 1000;

/**
 * `/integration/mcp-connected?status=…`: where an MCP server's sign-in ends, in the popup the app
 * opened. It tells the opener (this origin only, and on the channel) how it went and closes itself
 * once heard; opened on its own it just says so. No session, no shell: only the shell's texts.
 */
export default function McpConnectedPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const status = connectOutcome(params.get('status'));
  const opener = typeof window === 'undefined' ? null : (window.opener as Window | null);

  useEffect(() => {
    const message = { type: MCP_CONNECTED_MESSAGE, status };
    let closing: number | undefined;
    const closeSoon = () => {
      closing ??= window.setTimeout(() => window.close(), CLOSE_AFTER_MS);
    };
    if (opener) {
      opener.postMessage(message, window.location.origin);
      closeSoon();
    }
    // Without an opener (cut off on the sign-in page) the app's page still hears it here.
    const channel = connectChannel();
    if (channel) {
      channel.onmessage = (event: MessageEvent) => {
        if ((event.data as { type?: unknown } | null)?.type === MCP_CONNECTED_HEARD) closeSoon();
      };
      channel.postMessage(message);
    }
    return () => {
      window.clearTimeout(closing);
      channel?.close();
    };
  }, [opener, status]);

  const ok = status === 'connected';
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder radius="md" p="xl" maw={420} w="100%">
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={48} radius="xl" variant="light" color={ok ? 'green' : 'orange'}>
            {ok ? <IconCheck size={28} /> : <IconAlertTriangle size={28} />}
          </ThemeIcon>
          <Title order={1} size="h4">
            {t('mcp_connected.title')}
          </Title>
          <Text role="status" data-testid="mcp-connected-status">
            {t(`mcp_connected.${status}`)}
          </Text>
          <Button variant="default" onClick={() => window.close()}>
            {t('mcp_connected.close')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
