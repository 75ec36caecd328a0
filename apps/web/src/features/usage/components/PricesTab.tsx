import type { ModelPrice } from '@assistente/contracts';
import { Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconHistory, IconPencil, IconPlus, IconReceipt } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { RowActions } from '../../../ui/DataList.tsx';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { useModels } from '../../providers/index.ts';
import { usePriceHistory, usePrices } from '../hooks/useUsage.ts';
import { PriceDialog } from './PriceDialog.tsx';

/** The Prices tab (SuperAdmins): the price in force per model, models still unpriced, and each history. */
export function PricesTab() {
  const { t } = useTranslation();
  const popup = usePopup();
  const prices = usePrices();
  const models = useModels();
  const [dialog, setDialog] = useState<{ price: ModelPrice | null; model?: string } | null>(null);
  const [history, setHistory] = useState<string | null>(null);

  const priced = prices.data?.items ?? [];
  // Calls to a model without a price are counted as unpriced and refused under a money budget.
  const unpriced = useMemo(() => {
    const known = new Set(priced.map((p) => p.model));
    return (models.data?.models ?? []).map((m) => m.id).filter((id) => !known.has(id));
  }, [priced, models.data]);
  const offered = useMemo(() => (models.data?.models ?? []).map((m) => m.id), [models.data]);

  let body: ReactNode;
  if (prices.isPending) body = <ListSkeleton label={t('app.loading')} rows={3} />;
  else if (prices.isError) body = <LoadError title={t('usage.prices.load_failed')} query={prices} />;
  else if (priced.length === 0)
    body = (
      <EmptyPanel
        icon={<IconReceipt size={28} stroke={1.6} />}
        title={t('usage.prices.empty_title')}
        description={t('usage.prices.empty_description')}
      />
    );
  else
    body = (
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {priced.map((price) => (
          <PriceCard
            key={price.id}
            price={price}
            onEdit={() => setDialog({ price })}
            onHistory={() => setHistory(price.model)}
          />
        ))}
      </SimpleGrid>
    );

  return (
    <Stack gap="lg" pt="lg" data-testid="usage-prices">
      <Group justify="space-between" gap="sm">
        <Text c="dimmed" size="sm" maw={640}>
          {t('usage.prices.intro')}
        </Text>
        <Button
          leftSection={<IconPlus size={16} />}
          onClick={() => setDialog({ price: null })}
          data-testid="price-add"
        >
          {t('usage.prices.add')}
        </Button>
      </Group>
      {unpriced.length > 0 ? (
        <Paper withBorder radius="lg" p="md" data-testid="prices-unpriced">
          <Text fw={600} size="sm">
            {t('usage.prices.unpriced_title')}
          </Text>
          <Text size="sm" c="dimmed" mb="xs">
            {t('usage.prices.unpriced_hint')}
          </Text>
          <Group gap={6}>
            {unpriced.map((id) => (
              <Button
                key={id}
                size="compact-sm"
                variant="light"
                color="orange"
                onClick={() => setDialog({ price: null, model: id })}
              >
                {id}
              </Button>
            ))}
          </Group>
        </Paper>
      ) : null}
      {body}
      <PriceDialog
        opened={dialog !== null}
        price={dialog?.price ?? null}
        models={dialog?.model ? [dialog.model] : offered}
        initialModel={dialog?.model}
        onClose={() => setDialog(null)}
        onSaved={(saved) => {
          setDialog(null);
          void popup.show({ status: 'success', title: t('usage.prices.saved', { model: saved.model }) });
        }}
      />
      <PriceHistory model={history} onClose={() => setHistory(null)} />
    </Stack>
  );
}

function usd(amount: number, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 6,
  }).format(amount);
}

function PriceCard({
  price,
  onEdit,
  onHistory,
}: {
  price: ModelPrice;
  onEdit: () => void;
  onHistory: () => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const since = formatDateTime(price.effectiveFrom, locale);
  return (
    <Paper withBorder radius="lg" p="md" data-testid="price-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ wordBreak: 'break-all' }}>
            {price.model}
          </Text>
          <RowActions
            label={t('usage.prices.actions_for', { model: price.model })}
            actions={[
              {
                key: 'edit',
                label: t('usage.prices.change'),
                icon: <IconPencil size={16} />,
                onClick: onEdit,
              },
              {
                key: 'history',
                label: t('usage.prices.history'),
                icon: <IconHistory size={16} />,
                onClick: onHistory,
              },
            ]}
          />
        </Group>
        <Group gap={6}>
          <Badge variant="light">
            {t('usage.prices.input_short', { amount: usd(price.inputPerMillion, locale) })}
          </Badge>
          <Badge variant="light">
            {t('usage.prices.output_short', { amount: usd(price.outputPerMillion, locale) })}
          </Badge>
          {price.cachedInputPerMillion !== undefined ? (
            <Badge variant="outline" color="gray">
              {t('usage.prices.cached_short', { amount: usd(price.cachedInputPerMillion, locale) })}
            </Badge>
          ) : null}
          {price.perImage !== undefined ? (
            <Badge variant="light" color="accent" data-testid="price-per-image">
              {t('usage.prices.per_image_short', { amount: usd(price.perImage, locale) })}
            </Badge>
          ) : null}
        </Group>
        <Text size="xs" c="dimmed">
          {t('usage.prices.since', { when: since, who: price.setBy })}
        </Text>
      </Stack>
    </Paper>
  );
}

function PriceHistory({ model, onClose }: { model: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const history = usePriceHistory(model);
  // The per-image column is for image models: shown once any of the model's prices has one.
  const hasImages = history.data?.items.some((p) => p.perImage !== undefined) ?? false;
  return (
    <Modal
      opened={model !== null}
      onClose={onClose}
      title={t('usage.prices.history_title', { model: model ?? '' })}
      size="lg"
    >
      {history.isPending ? (
        <ListSkeleton label={t('app.loading')} rows={2} />
      ) : history.isError ? (
        <LoadError title={t('usage.prices.load_failed')} query={history} />
      ) : (
        <Table.ScrollContainer minWidth={hasImages ? 580 : 480}>
          <Table striped data-testid="price-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('usage.prices.columns.since')}</Table.Th>
                <Table.Th ta="right">{t('usage.prices.columns.input')}</Table.Th>
                <Table.Th ta="right">{t('usage.prices.columns.output')}</Table.Th>
                <Table.Th ta="right">{t('usage.prices.columns.cached')}</Table.Th>
                {hasImages ? <Table.Th ta="right">{t('usage.prices.columns.per_image')}</Table.Th> : null}
                <Table.Th>{t('usage.prices.columns.by')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.data.items.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>{formatDateTime(p.effectiveFrom, locale)}</Table.Td>
                  <Table.Td ta="right">{usd(p.inputPerMillion, locale)}</Table.Td>
                  <Table.Td ta="right">{usd(p.outputPerMillion, locale)}</Table.Td>
                  <Table.Td ta="right">
                    {p.cachedInputPerMillion === undefined ? '—' : usd(p.cachedInputPerMillion, locale)}
                  </Table.Td>
                  {hasImages ? (
                    <Table.Td ta="right">{p.perImage === undefined ? '—' : usd(p.perImage, locale)}</Table.Td>
                  ) : null}
                  <Table.Td>{p.setBy}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}
