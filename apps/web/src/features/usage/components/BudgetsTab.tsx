import { type Budget, percentUsed } from '@assistente/contracts';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCoin, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { RowActions } from '../../../ui/DataList.tsx';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { useBudgets, useDeleteBudget } from '../hooks/useUsage.ts';
import { BudgetDialog } from './BudgetDialog.tsx';
import { BudgetMeter } from './BudgetMeter.tsx';

/** The Budgets tab: the domain's budgets with what their period has used; create, change, delete. */
export function BudgetsTab({ domain }: { domain: string }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const budgets = useBudgets(domain);
  const remove = useDeleteBudget();
  const confirm = useConfirm<Budget>();
  const [dialog, setDialog] = useState<{ budget: Budget | null } | null>(null);

  const add = (
    <Button
      leftSection={<IconPlus size={16} />}
      onClick={() => setDialog({ budget: null })}
      data-testid="budget-add"
    >
      {t('usage.budgets.add')}
    </Button>
  );

  let body: ReactNode;
  if (budgets.isPending) body = <ListSkeleton label={t('app.loading')} rows={3} />;
  else if (budgets.isError) body = <LoadError title={t('usage.budgets.load_failed')} query={budgets} />;
  else if (budgets.data.items.length === 0)
    body = (
      <EmptyPanel
        icon={<IconCoin size={28} stroke={1.6} />}
        title={t('usage.budgets.empty_title')}
        description={t('usage.budgets.empty_description')}
      >
        {add}
      </EmptyPanel>
    );
  else
    body = (
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {budgets.data.items.map((budget) => (
          <BudgetCard
            key={budget.id}
            budget={budget}
            onEdit={() => setDialog({ budget })}
            onDelete={() => confirm.ask(budget)}
          />
        ))}
      </SimpleGrid>
    );

  return (
    <Stack gap="lg" pt="lg" data-testid="usage-budgets">
      <Group justify="space-between" gap="sm">
        <Text c="dimmed" size="sm" maw={640}>
          {t('usage.budgets.intro')}
        </Text>
        {budgets.data?.items.length ? add : null}
      </Group>
      {body}
      <BudgetDialog
        opened={dialog !== null}
        budget={dialog?.budget ?? null}
        domain={domain}
        onClose={() => setDialog(null)}
        onSaved={(_, created) => {
          setDialog(null);
          void popup.show({
            status: 'success',
            title: t(created ? 'usage.budgets.created' : 'usage.budgets.saved'),
          });
        }}
      />
      <ConfirmDialog
        opened={confirm.target !== null}
        title={t('usage.budgets.delete_title')}
        message={t('usage.budgets.delete_message', {
          scope: confirm.target ? scopeName(confirm.target, t) : '',
        })}
        confirmLabel={t('common.delete')}
        cancelLabel={t('common.cancel')}
        loading={remove.isPending}
        error={confirm.error}
        onClose={confirm.close}
        onConfirm={() =>
          void confirm.run(
            async (budget) => {
              await remove.mutateAsync(budget.id);
              void popup.show({ status: 'success', title: t('usage.budgets.deleted') });
            },
            (error) => apiErrorText(t, error),
          )
        }
      />
    </Stack>
  );
}

type Translate = ReturnType<typeof useTranslation>['t'];

/** "Marketing (department)", "Ana Lima (person)", "The whole domain". */
function scopeName(budget: Budget, t: Translate): string {
  return budget.scope.kind === 'domain'
    ? t('usage.budgets.scopes.whole_domain')
    : `${budget.scopeLabel} (${t(`usage.budgets.scopes.${budget.scope.kind}`).toLowerCase()})`;
}

function BudgetCard({
  budget,
  onEdit,
  onDelete,
}: {
  budget: Budget;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p="md" data-testid="budget-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} truncate="end">
              {budget.scope.kind === 'domain' ? t('usage.budgets.scopes.whole_domain') : budget.scopeLabel}
            </Text>
            <Group gap={6}>
              <Badge variant="light" size="sm">
                {t(`usage.budgets.scopes.${budget.scope.kind}`)}
              </Badge>
              <Badge variant="outline" size="sm" color="gray">
                {t(`usage.budgets.periods.${budget.period}`)}
              </Badge>
            </Group>
          </Stack>
          <RowActions
            label={t('usage.budgets.actions_for', { scope: scopeName(budget, t) })}
            actions={[
              { key: 'edit', label: t('common.edit'), icon: <IconPencil size={16} />, onClick: onEdit },
              {
                key: 'delete',
                label: t('common.delete'),
                icon: <IconTrash size={16} />,
                onClick: onDelete,
                danger: true,
              },
            ]}
          />
        </Group>
        <BudgetMeter
          limit={budget.limit}
          used={budget.used}
          percent={percentUsed(budget.limit, budget.used)}
          warnAtPercent={budget.warnAtPercent}
          showWarning
        />
      </Stack>
    </Paper>
  );
}
