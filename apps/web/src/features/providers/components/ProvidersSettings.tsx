import {
  type ModelInfo,
  modelDisplayName,
  type ProviderConfig,
  type ProviderTestResult,
} from '@assistente/contracts';
import { Alert, Badge, Button, Modal, Select, Stack, Text } from '@mantine/core';
import { IconCheck, IconPencil, IconPlugConnected, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { IconAction } from '../../../ui/IconAction.tsx';
import { ItemCard } from '../../../ui/ItemCard.tsx';
import { SettingsSection } from '../../../ui/SettingsSection.tsx';
import {
  useAiSettings,
  useDeleteProvider,
  useModels,
  useProviders,
  useSaveDefaultModel,
  useTestProvider,
} from '../hooks/useProviders.ts';
import { failureText } from '../lib/failures.ts';
import { providerName } from '../lib/names.ts';
import { ModelAccessEditor } from './ModelAccessEditor.tsx';
import { keyMask, ProviderForm } from './ProviderForm.tsx';

function TestResult({ result, baseUrl }: { result: ProviderTestResult; baseUrl: string | null }) {
  const { t } = useTranslation();
  return result.ok ? (
    <Alert color="secondary" variant="light" icon={<IconCheck size={16} />} role="status" py={6}>
      {t('providers.test_ok', { n: String(result.models.length) })}
    </Alert>
  ) : (
    <Alert color="error" variant="light" icon={<IconX size={16} />} role="alert" py={6}>
      {result.failure ? failureText(t, result.failure, baseUrl) : t('providers.test_failed')}
    </Alert>
  );
}

function ProviderRow({
  provider,
  onEdit,
  onDelete,
}: {
  provider: ProviderConfig;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const test = useTestProvider();
  return (
    <ItemCard
      testId="provider-row"
      title={provider.label}
      badges={
        <>
          <Badge variant="light" size="sm">
            {t(`providers.kinds.${provider.kind}`)}
          </Badge>
          {!provider.enabled ? (
            <Badge variant="light" color="neutral" size="sm">
              {t('providers.disabled')}
            </Badge>
          ) : null}
        </>
      }
      actions={
        <>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPlugConnected size={14} />}
            loading={test.isPending}
            onClick={() => test.mutate(provider.id)}
          >
            {t('providers.test')}
          </Button>
          <IconAction label={t('providers.edit')} icon={<IconPencil size={16} />} onClick={onEdit} />
          <IconAction
            label={t('providers.delete')}
            icon={<IconTrash size={16} />}
            onClick={onDelete}
            danger
          />
        </>
      }
      details={
        <>
          {provider.baseUrl ?? t('providers.default_endpoint')}
          {' · '}
          {provider.hasApiKey
            ? t('providers.key_configured', { mask: keyMask(provider.apiKeyHint) })
            : t('providers.no_key')}
        </>
      }
    >
      {provider.models.length > 0 ? (
        <Text size="xs" c="dimmed">
          {t('providers.curated_models', { models: provider.models.join(', ') })}
        </Text>
      ) : null}
      {test.data ? <TestResult result={test.data} baseUrl={provider.baseUrl} /> : null}
      {test.isError ? (
        <Text size="sm" c="error.7" role="alert">
          {errorMessage(test.error, t('providers.test_failed'))}
        </Text>
      ) : null}
    </ItemCard>
  );
}

/**
 * The providers the server's environment sets for every domain, with the models they answer:
 * read-only here (the operator changes them), but what chats use when the domain has none.
 */
function InstanceProviders({ models }: { models: ModelInfo[] }) {
  const { t } = useTranslation();
  const byProvider = new Map<string, { model: ModelInfo; names: string[] }>();
  for (const model of models) {
    if (model.source !== 'instance') continue;
    const entry = byProvider.get(model.provider) ?? { model, names: [] };
    entry.names.push(model.name);
    byProvider.set(model.provider, entry);
  }
  if (byProvider.size === 0) return null;
  return (
    <Stack gap="sm" data-testid="instance-providers">
      <div>
        <Text fw={600}>{t('providers.instance.title')}</Text>
        <Text size="sm" c="dimmed">
          {t('providers.instance.description')}
        </Text>
      </div>
      {[...byProvider.values()].map(({ model, names }) => (
        <ItemCard
          key={model.provider}
          testId="instance-provider-row"
          title={providerName(t, model)}
          badges={
            <Badge variant="light" color="neutral" size="sm">
              {t('providers.instance.badge')}
            </Badge>
          }
        >
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('providers.curated_models', { models: names.join(', ') })}
          </Text>
        </ItemCard>
      ))}
    </Stack>
  );
}

function DefaultModel() {
  const { t } = useTranslation();
  const ai = useAiSettings();
  const models = useModels();
  const save = useSaveDefaultModel();
  const options = (models.data?.models ?? []).map((m) => ({
    value: m.id,
    label: modelDisplayName(m.id, providerName(t, m)),
  }));
  // Models as people read them: the provider's name, never its internal id.
  const labelOf = (id: string) => {
    const known = models.data?.models.find((m) => m.id === id);
    return modelDisplayName(id, known ? providerName(t, known) : undefined);
  };
  const current = ai.data?.defaultModel ?? null;
  if (current && !options.some((o) => o.value === current))
    options.push({ value: current, label: labelOf(current) });
  return (
    <Stack gap={6}>
      <Select
        label={t('providers.default_model')}
        description={
          ai.data?.effectiveDefaultModel && !current
            ? t('providers.default_model_instance', { model: labelOf(ai.data.effectiveDefaultModel) })
            : t('providers.default_model_hint')
        }
        data={options}
        value={current}
        onChange={(value) => save.mutate(value)}
        clearable
        searchable
        placeholder={t('providers.default_model_none')}
        disabled={ai.isPending || save.isPending}
        nothingFoundMessage={t('chats.params.no_models')}
        // Not hidden when its field leaves the screen: on a phone, focusing the field low on a scrolled
        // page can move the page, and a hidden list would need a second tap.
        comboboxProps={{ withinPortal: true, hideDetached: false }}
        maw={460}
        data-testid="default-model"
      />
      {save.isError ? (
        <Text size="sm" c="error.7" role="alert">
          {errorMessage(save.error, t('http.fallback_error'))}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * The domain's AI providers (Admin): list, add, edit, delete, test the connection, and the default
 * model. Meant for `/settings` (an "AI providers" section for Admins).
 */
export function ProvidersSettings() {
  const { t } = useTranslation();
  const providers = useProviders();
  const models = useModels();
  const instanceModels = (models.data?.models ?? []).filter((m) => m.source === 'instance');
  const remove = useDeleteProvider();
  const [editing, setEditing] = useState<{ provider: ProviderConfig | null } | null>(null);
  const [deleting, setDeleting] = useState<ProviderConfig | null>(null);

  return (
    <Stack gap="lg" data-testid="providers-settings">
      <SettingsSection
        title={t('providers.title')}
        description={t('providers.description')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ provider: null })}>
            {t('providers.add')}
          </Button>
        }
        query={providers}
        empty={instanceModels.length > 0 ? t('providers.empty_with_instance') : t('providers.empty')}
      >
        {(items) => (
          <Stack gap="sm">
            {items.map((provider) => (
              <ProviderRow
                key={provider.id}
                provider={provider}
                onEdit={() => setEditing({ provider })}
                onDelete={() => setDeleting(provider)}
              />
            ))}
          </Stack>
        )}
      </SettingsSection>
      <InstanceProviders models={instanceModels} />
      <DefaultModel />
      <ModelAccessEditor />

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={
          editing?.provider
            ? t('providers.edit_title', { label: editing.provider.label })
            : t('providers.add')
        }
        size="lg"
      >
        {editing ? (
          <ProviderForm
            provider={editing.provider}
            onDone={() => setEditing(null)}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('providers.delete_title')}
        message={t('providers.delete_confirm', { label: deleting?.label ?? '' })}
        confirmLabel={t('providers.delete')}
        cancelLabel={t('common.cancel')}
        loading={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, t('http.fallback_error')) : null}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) });
        }}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

export default ProvidersSettings;
