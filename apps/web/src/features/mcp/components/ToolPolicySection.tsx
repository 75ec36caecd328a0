import {
  type ToolDecision,
  ToolDecisionSchema,
  type ToolPolicy,
  ToolPolicyLimits,
  ToolRuleSchema,
} from '@assistente/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { useSaveToolPolicy, useToolPolicy } from '../hooks/useMcpServers.ts';
import { DefaultToolsField, defaultToolsChanged, defaultToolsRefused } from './DefaultToolsSettings.tsx';
import {
  type WebSearchDraft,
  WebSearchSettingsFields,
  webSearchDraft,
  webSearchInput,
  webSearchRefused,
  webSearchValid,
} from './WebSearchSettings.tsx';

/** A rule being edited; `key` keeps each row's inputs in place when one above is removed. */
interface RuleDraft {
  key: number;
  match: string;
  decision: ToolDecision;
}

let nextKey = 0;
const draft = (match: string, decision: ToolDecision): RuleDraft => {
  nextKey += 1;
  return { key: nextKey, match, decision };
};

const isDecision = (value: string): value is ToolDecision => ToolDecisionSchema.safeParse(value).success;

/**
 * The rules and the switch, kept as rows rather than in `useFormFields`: that helper holds a fixed
 * set of text fields, and rules are added and removed. It validates the same way: on save, then live.
 */
function ToolPolicyForm({ policy }: { policy: ToolPolicy }) {
  const { t } = useTranslation();
  const save = useSaveToolPolicy();
  const [rules, setRules] = useState<RuleDraft[]>(() => policy.rules.map((r) => draft(r.match, r.decision)));
  const [userServers, setUserServers] = useState(policy.userServers);
  const [webSearch, setWebSearch] = useState(() => webSearchDraft(policy.webSearch));
  // Sent only once edited: saving the rules does not re-check an address the server holds already.
  const [webSearchEdited, setWebSearchEdited] = useState(false);
  const [defaultTools, setDefaultTools] = useState(policy.defaultTools);
  const [submitted, setSubmitted] = useState(false);

  const matchError = (match: string) =>
    ToolRuleSchema.shape.match.safeParse(match).success ? null : t('mcp.policy.match_invalid');
  const edit = (key: number, change: Partial<RuleDraft>) => {
    save.reset();
    setRules((list) => list.map((r) => (r.key === key ? { ...r, ...change } : r)));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (rules.some((r) => matchError(r.match))) return;
    if (webSearchEdited && !webSearchValid(webSearch, policy.webSearch)) return;
    save.mutate(
      {
        rules: rules.map((r) => ({ match: r.match.trim(), decision: r.decision })),
        userServers,
        ...(webSearchEdited ? { webSearch: webSearchInput(webSearch) } : {}),
        // Like web search: left out when unchanged, so a save of the rules re-checks no stored tool.
        ...(defaultToolsChanged(defaultTools, policy.defaultTools) ? { defaultTools } : {}),
      },
      {
        onSuccess: () => {
          // The key typed is stored now (the policy says so); the field goes back to "keep it".
          setWebSearch((d) => ({ ...d, apiKey: '' }));
          setWebSearchEdited(false);
        },
      },
    );
  };
  const editWebSearch = (next: WebSearchDraft) => {
    save.reset();
    setWebSearch(next);
    setWebSearchEdited(true);
  };

  return (
    <form onSubmit={submit} noValidate data-testid="tool-policy">
      <Stack gap="sm">
        {rules.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('mcp.policy.no_rules')}
          </Text>
        ) : (
          rules.map((rule, i) => {
            const n = String(i + 1);
            const label = t('mcp.policy.rule_label', { n });
            return (
              <Group key={rule.key} gap="xs" wrap="nowrap" align="flex-start" data-testid="tool-rule">
                <TextInput
                  style={{ flex: 1 }}
                  aria-label={`${label}: ${t('mcp.policy.match')}`}
                  placeholder={t('mcp.policy.match_hint')}
                  maxLength={200}
                  value={rule.match}
                  onChange={(e) => edit(rule.key, { match: e.currentTarget.value })}
                  error={submitted ? matchError(rule.match) : null}
                />
                <NativeSelect
                  aria-label={`${label}: ${t('mcp.policy.decision')}`}
                  value={rule.decision}
                  onChange={(e) => {
                    const value = e.currentTarget.value;
                    if (isDecision(value)) edit(rule.key, { decision: value });
                  }}
                  data={ToolDecisionSchema.options.map((d) => ({
                    value: d,
                    label: t(`mcp.policy.decisions.${d}`),
                  }))}
                  w={150}
                />
                <ActionIcon
                  variant="subtle"
                  color="error"
                  size="lg"
                  onClick={() => {
                    save.reset();
                    setRules((list) => list.filter((r) => r.key !== rule.key));
                  }}
                  aria-label={t('mcp.policy.remove_rule', { n })}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            );
          })
        )}
        {rules.length < ToolPolicyLimits.rules ? (
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => {
              save.reset();
              setRules((list) => [...list, draft('mcp:*', 'ask')]);
            }}
            style={{ alignSelf: 'flex-start' }}
          >
            {t('mcp.policy.add_rule')}
          </Button>
        ) : null}
        <Checkbox
          label={t('mcp.policy.user_servers')}
          checked={userServers}
          onChange={(e) => {
            save.reset();
            setUserServers(e.currentTarget.checked);
          }}
        />
        <WebSearchSettingsFields
          stored={policy.webSearch}
          draft={webSearch}
          onChange={editWebSearch}
          submitted={submitted && webSearchEdited}
          error={save.error}
        />
        <DefaultToolsField
          value={defaultTools}
          onChange={(refs) => {
            save.reset();
            setDefaultTools(refs);
          }}
          error={save.error}
        />
        {save.isError && !webSearchRefused(save.error) && !defaultToolsRefused(save.error) ? (
          <Alert color="error" variant="light" role="alert">
            {apiErrorText(t, save.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          {save.isSuccess ? (
            <Text size="sm" c="dimmed" role="status">
              {t('mcp.policy.saved')}
            </Text>
          ) : null}
          <Button type="submit" loading={save.isPending}>
            {t('mcp.policy.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * `/integration` → MCP servers → Tool policy (Admins): what a santito's tool call may do, and the
 * tools of chats without a santito.
 */
export function ToolPolicySection() {
  const { t } = useTranslation();
  const policy = useToolPolicy();
  return (
    <Stack gap="sm" component="section" aria-labelledby="tool-policy-title">
      <Stack gap={2}>
        <Title order={2} size="h4" id="tool-policy-title">
          {t('mcp.policy.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('mcp.policy.description')}
        </Text>
      </Stack>
      {policy.isPending ? (
        <ListSkeleton rows={2} height={40} label={t('app.loading')} />
      ) : policy.isError ? (
        <LoadError title={t('common.load_failed')} query={policy} />
      ) : (
        <ToolPolicyForm policy={policy.data} />
      )}
    </Stack>
  );
}
