import type { BuiltinToolInfo, BuiltinToolName, ToolDecision, ToolInfo } from '@assistente/contracts';
import { Badge, Checkbox, Fieldset, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ListSkeleton } from '../../../ui/LoadState.tsx';
import { useTools } from '../hooks/useMcpServers.ts';

const DECISION_COLOR: Record<ToolDecision, string> = { allow: 'primary', ask: 'accent', deny: 'error' };

/** What an Admin sets up for a built-in to work, where the tool has its own words for it. */
const NOT_CONFIGURED_HINT: Partial<Record<BuiltinToolName, string>> = {
  web_search: 'mcp.builtin.web_search.not_configured',
  generate_image: 'mcp.builtin.generate_image.not_configured',
};

/** The reference that gives a santito every tool of a server, those added later included. */
export const allToolsRef = (serverId: string) => `mcp:${serverId}:*`;

interface ServerTools {
  serverId: string;
  serverName: string;
  tools: ToolInfo[];
}

function byServer(tools: ToolInfo[]): ServerTools[] {
  const groups = new Map<string, ServerTools>();
  for (const tool of tools) {
    let group = groups.get(tool.serverId);
    if (!group) {
      group = { serverId: tool.serverId, serverName: tool.serverName, tools: [] };
      groups.set(tool.serverId, group);
    }
    group.tools.push(tool);
  }
  return [...groups.values()];
}

function DecisionBadge({ decision }: { decision: ToolDecision }) {
  const { t } = useTranslation();
  return (
    <Badge size="xs" variant="light" color={DECISION_COLOR[decision]} data-testid="tool-decision">
      {t(`mcp.decision.${decision}`)}
    </Badge>
  );
}

/** Assistente's own tools, each picked as `builtin:{name}`, with what the policy decides for it. */
function BuiltinTools({
  builtins,
  selected,
  toggle,
}: {
  builtins: BuiltinToolInfo[];
  selected: Set<string>;
  toggle: (ref: string, on: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Fieldset legend={t('mcp.builtin.title')} variant="filled" p="sm">
      <Stack gap={8}>
        {builtins.map((tool) => {
          const denied = tool.decision === 'deny';
          const picked = selected.has(tool.ref);
          return (
            <Group
              key={tool.ref}
              gap="xs"
              wrap="nowrap"
              align="flex-start"
              data-testid="builtin-tool"
              data-tool={tool.name}
            >
              <Checkbox
                style={{ flex: 1 }}
                label={t(`mcp.builtin.${tool.name}.name`)}
                description={
                  <>
                    {t(`mcp.builtin.${tool.name}.description`)}
                    {tool.unavailable === 'not_configured' ? (
                      <Text
                        component="span"
                        size="xs"
                        c="accent.7"
                        display="block"
                        data-testid="builtin-hint"
                      >
                        {t(NOT_CONFIGURED_HINT[tool.name] ?? 'mcp.builtin.not_configured')}
                      </Text>
                    ) : null}
                  </>
                }
                checked={picked}
                disabled={denied && !picked}
                onChange={(e) => toggle(tool.ref, e.currentTarget.checked)}
              />
              <DecisionBadge decision={tool.decision} />
            </Group>
          );
        })}
      </Stack>
    </Fieldset>
  );
}

/**
 * The santito editor's tools (and the tool policy's default tools): Assistente's own, then the
 * tools the author sees by server, each with what the domain's policy decides for it. A tool the
 * policy denies cannot be picked. References listed but no longer offered (a server removed or
 * hidden) are shown checked, so they can be taken out. A built-in not set up yet (web search, image
 * generation) stays selectable: answers are offered it once an Admin sets it up.
 */
export function ToolPicker({
  value,
  onChange,
  withHeading = true,
  servers,
  withEmptyNote = true,
}: {
  value: string[];
  onChange: (refs: string[]) => void;
  /** False: no heading nor explanation, the caller gives its own (the tool policy's part). */
  withHeading?: boolean;
  /** False: nothing is said when no server offers tools (the caller's page says it already). */
  withEmptyNote?: boolean;
  /**
   * The servers whose tools are offered; all the caller sees when absent. The domain's default
   * tools take only the domain's own servers, never a person's private one (the list has the
   * Admin's own too).
   */
  servers?: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  const tools = useTools();
  const selected = new Set(value);
  const builtins = tools.data?.builtins ?? [];
  const listed = tools.data?.tools ?? [];
  const groups = byServer(servers ? listed.filter((tool) => servers.has(tool.serverId)) : listed);
  const offered = new Set([
    ...builtins.map((tool) => tool.ref),
    ...groups.flatMap((g) => [allToolsRef(g.serverId), ...g.tools.map((tool) => tool.ref)]),
  ]);
  const unavailable = tools.isSuccess ? value.filter((ref) => !offered.has(ref)) : [];

  const toggle = (ref: string, on: boolean) =>
    onChange(on ? [...value.filter((r) => r !== ref), ref] : value.filter((r) => r !== ref));
  const toggleAll = (group: ServerTools, on: boolean) => {
    const own = new Set(group.tools.map((tool) => tool.ref));
    const star = allToolsRef(group.serverId);
    // The server's `*` replaces its tools picked one by one: one reference, and later tools too.
    onChange(
      on ? [...value.filter((r) => !own.has(r) && r !== star), star] : value.filter((r) => r !== star),
    );
  };

  return (
    <Stack gap={6} data-testid="tool-picker">
      {withHeading ? (
        <>
          <Text size="sm" fw={500}>
            {t('santitos.form.tools')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('santitos.form.tools_hint')}
          </Text>
        </>
      ) : null}
      {tools.isPending ? (
        <ListSkeleton rows={1} height={48} label={t('app.loading')} />
      ) : tools.isError ? (
        <Text size="sm" c="error.7" role="alert">
          {t('common.load_failed')}
        </Text>
      ) : (
        <>
          {builtins.length > 0 ? (
            <BuiltinTools builtins={builtins} selected={selected} toggle={toggle} />
          ) : null}
          {groups.length === 0 && withEmptyNote ? (
            <Text size="sm" c="dimmed" data-testid="tool-picker-empty">
              {t('santitos.form.tools_empty')}
            </Text>
          ) : null}
          {groups.map((group) => {
            const all = selected.has(allToolsRef(group.serverId));
            return (
              <Fieldset key={group.serverId} legend={group.serverName} variant="filled" p="sm">
                <Stack gap={8}>
                  <Checkbox
                    label={t('santitos.form.tools_all', { server: group.serverName })}
                    checked={all}
                    onChange={(e) => toggleAll(group, e.currentTarget.checked)}
                  />
                  {group.tools.map((tool) => {
                    const denied = tool.decision === 'deny';
                    const picked = selected.has(tool.ref);
                    return (
                      <Group key={tool.ref} gap="xs" wrap="nowrap" align="flex-start" pl="md">
                        <Checkbox
                          style={{ flex: 1 }}
                          label={tool.title ?? tool.name}
                          description={tool.description ?? undefined}
                          checked={(all && !denied) || picked}
                          disabled={all || (denied && !picked)}
                          onChange={(e) => toggle(tool.ref, e.currentTarget.checked)}
                        />
                        <DecisionBadge decision={tool.decision} />
                      </Group>
                    );
                  })}
                </Stack>
              </Fieldset>
            );
          })}
        </>
      )}
      {unavailable.length > 0 ? (
        <Fieldset legend={t('santitos.form.tools_unavailable')} variant="filled" p="sm">
          <Stack gap={8}>
            {unavailable.map((ref) => (
              <Checkbox key={ref} label={ref} checked onChange={() => toggle(ref, false)} />
            ))}
          </Stack>
        </Fieldset>
      ) : null}
    </Stack>
  );
}
