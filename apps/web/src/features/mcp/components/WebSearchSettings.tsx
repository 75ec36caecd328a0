import { type WebSearchInput, WebSearchInputSchema, type WebSearchSettings } from '@assistente/contracts';
import {
  Anchor,
  Fieldset,
  Input,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { type ChangeEvent, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorField } from '../../../ui/apiError.ts';
import { addressText, blockedAddress } from '../../providers/index.ts';

type Provider = WebSearchSettings['provider'];
type Choice = 'off' | Provider;
const CHOICES: readonly Choice[] = ['off', 'searxng', 'brave', 'tavily'];
const isChoice = (value: string): value is Choice => (CHOICES as readonly string[]).includes(value);

/** Web search as being edited: one address field, SearXNG's own or a proxy's for Brave and Tavily. */
export interface WebSearchDraft {
  provider: Choice;
  url: string;
  apiKey: string;
}

const URL_FIELD = 'webSearch.url';
const KEY_FIELD = 'webSearch.apiKey';

export const webSearchDraft = (stored: WebSearchSettings | null): WebSearchDraft => ({
  provider: stored?.provider ?? 'off',
  url: stored?.url ?? '',
  apiKey: '',
});

/** The stored key is kept only while the provider stays the one it belongs to (as the server does). */
const keyStored = (draft: WebSearchDraft, stored: WebSearchSettings | null) =>
  stored !== null && stored.provider === draft.provider && stored.hasApiKey;

/** What the policy's save sends; an empty key is left out, so the stored one is kept. */
export function webSearchInput(draft: WebSearchDraft): WebSearchInput | null {
  const url = draft.url.trim();
  const apiKey = draft.apiKey.trim();
  switch (draft.provider) {
    case 'off':
      return null;
    case 'searxng':
      return { provider: 'searxng', url };
    case 'brave':
    case 'tavily':
      return { provider: draft.provider, ...(apiKey ? { apiKey } : {}), ...(url ? { url } : {}) };
  }
}

function draftProblems(draft: WebSearchDraft, stored: WebSearchSettings | null) {
  const input = webSearchInput(draft);
  const parsed = input ? WebSearchInputSchema.safeParse(input) : null;
  return {
    url: parsed?.success === false && parsed.error.issues.some((i) => i.path[0] === 'url'),
    apiKey:
      (draft.provider === 'brave' || draft.provider === 'tavily') &&
      !draft.apiKey.trim() &&
      !keyStored(draft, stored),
  };
}

/** Whether the draft may be sent: the server would refuse a missing address or key. */
export const webSearchValid = (draft: WebSearchDraft, stored: WebSearchSettings | null) => {
  const problems = draftProblems(draft, stored);
  return !problems.url && !problems.apiKey;
};

const refusedField = (error: unknown, path: string) => apiErrorField(error, path) !== null;

/** Whether a failed save was a refusal of a web search field, which that field shows itself. */
export const webSearchRefused = (error: unknown) =>
  refusedField(error, URL_FIELD) || refusedField(error, KEY_FIELD);

/**
 * The tool policy's web search part (an Admin's): where `builtin:web_search` searches. Edited in
 * place and saved with the policy; `error` is that save's failure, shown on the field it names.
 */
export function WebSearchSettingsFields({
  stored,
  draft,
  onChange,
  submitted,
  error,
}: {
  stored: WebSearchSettings | null;
  draft: WebSearchDraft;
  onChange: (draft: WebSearchDraft) => void;
  /** After a first save, the draft's own mistakes show (then live). */
  submitted: boolean;
  error: unknown;
}) {
  const { t } = useTranslation();
  const [advanced, setAdvanced] = useState(Boolean(stored?.url) && stored?.provider !== 'searxng');
  const problems = draftProblems(draft, stored);
  const hasKey = keyStored(draft, stored);
  const provider = t(`mcp.web_search.providers.${draft.provider}`);
  const blocked = blockedAddress(error, URL_FIELD);
  const urlError = submitted && problems.url ? t('mcp.web_search.url_invalid') : undefined;
  const urlShown = urlError ?? (blocked ? addressText(t, blocked.reason, draft.url, blocked) : undefined);
  const keyError =
    (submitted && problems.apiKey) || refusedField(error, KEY_FIELD)
      ? t('mcp.web_search.api_key_required', { provider })
      : undefined;
  const urlField = {
    value: draft.url,
    onChange: (e: ChangeEvent<HTMLInputElement>) => onChange({ ...draft, url: e.currentTarget.value }),
    error: urlShown,
    type: 'url',
    maxLength: 2048,
  };

  return (
    <Fieldset legend={t('mcp.web_search.title')} variant="filled" p="sm" data-testid="web-search">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('mcp.web_search.description')}
        </Text>
        <Input.Wrapper label={t('mcp.web_search.provider')} labelProps={{ id: 'web-search-provider' }}>
          <SegmentedControl
            aria-labelledby="web-search-provider"
            fullWidth
            value={draft.provider}
            onChange={(value) => {
              if (!isChoice(value)) return;
              // An address belongs to its provider: SearXNG's is no proxy for Brave.
              const url = stored?.provider === value ? (stored.url ?? '') : '';
              onChange({ provider: value, url, apiKey: '' });
            }}
            data={CHOICES.map((c) => ({ value: c, label: t(`mcp.web_search.providers.${c}`) }))}
          />
        </Input.Wrapper>
        {draft.provider === 'searxng' ? (
          <TextInput
            label={t('mcp.web_search.url')}
            description={t('mcp.web_search.url_hint')}
            required
            placeholder="https://searx.example.com"
            {...urlField}
          />
        ) : null}
        {draft.provider === 'brave' || draft.provider === 'tavily' ? (
          <>
            <PasswordInput
              label={t('mcp.web_search.api_key')}
              description={hasKey ? t('mcp.web_search.api_key_keep') : t('mcp.web_search.api_key_hint')}
              placeholder={hasKey ? t('mcp.web_search.api_key_stored') : undefined}
              required={!hasKey}
              value={draft.apiKey}
              onChange={(e) => onChange({ ...draft, apiKey: e.currentTarget.value })}
              error={keyError}
              autoComplete="off"
              maxLength={500}
            />
            <Anchor
              component="button"
              type="button"
              size="sm"
              aria-expanded={advanced}
              onClick={() => setAdvanced((open) => !open)}
              style={{ alignSelf: 'flex-start', display: 'inline-flex', alignItems: 'center', gap: 4 }}
            >
              {advanced ? (
                <IconChevronDown size={14} aria-hidden />
              ) : (
                <IconChevronRight size={14} aria-hidden />
              )}
              {t('mcp.web_search.advanced')}
            </Anchor>
            {/* A refused proxy address shows even with the disclosure closed. */}
            {advanced || urlShown ? (
              <TextInput
                label={t('mcp.web_search.proxy_url')}
                description={t('mcp.web_search.proxy_url_hint', { provider })}
                {...urlField}
              />
            ) : null}
          </>
        ) : null}
      </Stack>
    </Fieldset>
  );
}
