import {
  type ProviderConfig,
  type ProviderConfigCreate,
  type ProviderConfigUpdate,
  type ProviderKind,
  ProviderKinds,
  ProviderKindsNeedingApiKey,
  ProviderKindsNeedingBaseUrl,
} from '@assistente/contracts';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useSaveProvider } from '../hooks/useProviders.ts';
import { addressText, blockedAddress } from '../lib/failures.ts';

/** "configured ••••1234": what is shown of a stored key (never the key itself). */
export function keyMask(hint: string | null): string {
  const tail = (hint ?? '').replace(/^[^A-Za-z0-9]+/, '');
  return `••••${tail}`;
}

const BASE_URL_PLACEHOLDER: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  // A public name: a local Ollama is refused unless the operator allow-lists it (the hint says so).
  ollama: 'https://ollama.example.com',
  'openai-compatible': 'https://llm.example.com/v1',
};

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** Add or edit one provider. The API key is write-only: empty keeps the stored one. */
export function ProviderForm({
  provider,
  onDone,
  onCancel,
}: {
  provider: ProviderConfig | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveProvider();
  // The server refused the address or could not reach it: what happened, on the field.
  const urlRefused = save.isError ? blockedAddress(save.error, 'baseUrl') : undefined;
  const [kind, setKind] = useState<ProviderKind>(provider?.kind ?? 'openai');
  const [label, setLabel] = useState(provider?.label ?? '');
  const [baseUrl, setBaseUrl] = useState(provider?.baseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [models, setModels] = useState<string[]>(provider?.models ?? []);
  const [enabled, setEnabled] = useState(provider?.enabled ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const needsUrl = ProviderKindsNeedingBaseUrl.includes(kind);
  const needsKey = ProviderKindsNeedingApiKey.includes(kind);

  const submit = () => {
    const next: Record<string, string> = {};
    if (!label.trim()) next.label = t('providers.form.label_required');
    if (needsUrl && !baseUrl.trim()) next.baseUrl = t('providers.form.base_url_required');
    if (baseUrl.trim() && !isHttpUrl(baseUrl.trim())) next.baseUrl = t('providers.form.base_url_invalid');
    if (needsKey && !apiKey.trim() && (!provider?.hasApiKey || removeKey))
      next.apiKey = t('providers.form.api_key_required');
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const url = baseUrl.trim() || null;
    if (provider) {
      const body: ProviderConfigUpdate = {
        label: label.trim(),
        baseUrl: url,
        models,
        enabled,
        ...(removeKey ? { apiKey: null } : apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
      };
      save.mutate({ id: provider.id, body }, { onSuccess: onDone });
    } else {
      const body: ProviderConfigCreate = {
        kind,
        label: label.trim(),
        baseUrl: url,
        models,
        enabled,
        ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
      };
      save.mutate({ id: null, body }, { onSuccess: onDone });
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      noValidate
    >
      <Stack gap="md">
        {save.isError && !urlRefused ? (
          <Alert color="error" variant="light" role="alert">
            {errorMessage(save.error, t('http.fallback_error'))}
          </Alert>
        ) : null}
        <Select
          label={t('providers.form.kind')}
          data={ProviderKinds.map((k) => ({ value: k, label: t(`providers.kinds.${k}`) }))}
          value={kind}
          onChange={(v) => {
            const next = ProviderKinds.find((k) => k === v);
            if (next) setKind(next);
          }}
          disabled={provider !== null}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label={t('providers.form.label')}
          required
          maxLength={120}
          value={label}
          onChange={(e) => setLabel(e.currentTarget.value)}
          error={errors.label}
          placeholder={t(`providers.kinds.${kind}`)}
        />
        <TextInput
          label={t('providers.form.base_url')}
          description={
            kind === 'ollama'
              ? t('providers.form.base_url_hint_ollama')
              : needsUrl
                ? t('providers.form.base_url_hint_required')
                : t('providers.form.base_url_hint')
          }
          required={needsUrl}
          value={baseUrl}
          onChange={(e) => {
            setBaseUrl(e.currentTarget.value);
            if (urlRefused) save.reset();
          }}
          error={
            errors.baseUrl ??
            (urlRefused ? addressText(t, urlRefused.reason, baseUrl, urlRefused) : undefined)
          }
          placeholder={BASE_URL_PLACEHOLDER[kind]}
          type="url"
          maxLength={2048}
        />
        <PasswordInput
          label={t('providers.form.api_key')}
          description={
            provider?.hasApiKey
              ? t('providers.form.api_key_keep', { mask: keyMask(provider.apiKeyHint) })
              : t('providers.form.api_key_hint')
          }
          required={needsKey && !provider?.hasApiKey}
          value={apiKey}
          onChange={(e) => setApiKey(e.currentTarget.value)}
          error={errors.apiKey}
          autoComplete="off"
          disabled={removeKey}
          maxLength={4096}
          data-testid="provider-api-key"
        />
        {provider?.hasApiKey ? (
          <Checkbox
            label={t('providers.form.remove_key')}
            checked={removeKey}
            onChange={(e) => setRemoveKey(e.currentTarget.checked)}
          />
        ) : null}
        <TagsInput
          label={t('providers.form.models')}
          description={t('providers.form.models_hint')}
          value={models}
          onChange={setModels}
          maxTags={200}
          clearable
        />
        <Switch
          label={t('providers.form.enabled')}
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('chats.message.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {provider ? t('providers.form.save') : t('providers.form.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
