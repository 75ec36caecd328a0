import { Fieldset, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorField } from '../../../ui/apiError.ts';
import { ListSkeleton } from '../../../ui/LoadState.tsx';
import { isDomainServer, useMcpServers } from '../hooks/useMcpServers.ts';
import { ToolPicker } from './ToolPicker.tsx';

const FIELD = 'defaultTools';

/** Whether the policy's save should carry the default tools: only when the set picked changed. */
export const defaultToolsChanged = (picked: readonly string[], stored: readonly string[]) => {
  const before = new Set(stored);
  return picked.length !== before.size || picked.some((ref) => !before.has(ref));
};

/** Whether a failed save was a refusal of the default tools, which their part shows itself. */
export const defaultToolsRefused = (error: unknown) => apiErrorField(error, FIELD) !== null;

/**
 * The tool policy's part for chats without a santito (the domain's default assistant): their tools,
 * picked as a santito's are, of the domain's own servers only. `error` is the policy's save failure;
 * a refused tool is named here.
 */
export function DefaultToolsField({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (refs: string[]) => void;
  error: unknown;
}) {
  const { t } = useTranslation();
  const servers = useMcpServers(isDomainServer);
  const domainServers = useMemo(() => new Set(servers.data?.map((s) => s.id)), [servers.data]);
  const refused = apiErrorField(error, FIELD);
  // The server's message names the reference it refused ("Unknown tool mcp:…"); the reference is no prose.
  const tool = refused?.match(/(?:builtin|mcp):\S+/)?.[0];

  return (
    // Unboxed: the picker's own boxes inside a box would leave a phone's tool texts too narrow.
    <Fieldset
      legend={
        <Text size="sm" fw={600}>
          {t('mcp.policy.default_tools')}
        </Text>
      }
      variant="unstyled"
      m={0}
      data-testid="default-tools"
    >
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t('mcp.policy.default_tools_hint')}
        </Text>
        {servers.isPending ? (
          <ListSkeleton rows={1} height={48} label={t('app.loading')} />
        ) : (
          <ToolPicker
            value={value}
            onChange={onChange}
            withHeading={false}
            servers={domainServers}
            // The server list above says there are none yet.
            withEmptyNote={false}
          />
        )}
        {refused === null ? null : (
          <Text size="sm" c="error.7" role="alert">
            {tool ? t('mcp.policy.default_tools_unknown', { tool }) : t('mcp.policy.default_tools_invalid')}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
