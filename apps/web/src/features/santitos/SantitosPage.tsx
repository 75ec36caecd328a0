import { createsSantitos, type Santito } from '@assistente/contracts';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Menu,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconDots,
  IconMessagePlus,
  IconPencil,
  IconPlus,
  IconSearch,
  IconSparkles,
  IconTrash,
} from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { newChatPath } from '../../lib/chatPaths.ts';
import { errorMessage } from '../../lib/http/errors.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { EmptyPanel } from '../../ui/EmptyPanel.tsx';
import { useLocalePath } from '../../ui/hooks/useLocalePath.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { useAccountSession } from '../auth/index.ts';
import { SantitoAvatar } from './components/SantitoAvatar.tsx';
import { useDeleteSantito, useSantitos } from './hooks/useSantitos.ts';

const SantitoForm = lazy(() => import('./components/SantitoForm.tsx'));

type Editing = { santito: Santito | null } | null;

function SantitoCard({
  santito,
  onEdit,
  onDelete,
}: {
  santito: Santito;
  onEdit: (s: Santito) => void;
  onDelete: (s: Santito) => void;
}) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="santito-card">
      <Stack gap="sm" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <SantitoAvatar santito={santito} size={48} />
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={650} truncate>
                {santito.name}
              </Text>
              <Badge
                size="xs"
                variant="light"
                color={santito.visibility === 'domain' ? 'secondary' : 'accent'}
              >
                {t(`santitos.visibility.${santito.visibility}`)}
              </Badge>
            </Stack>
          </Group>
          {santito.canEdit ? (
            <Menu position="bottom-end" shadow="md">
              <Menu.Target>
                <ActionIcon
                  variant="subtle"
                  color="neutral.6"
                  aria-label={t('santitos.actions', { name: santito.name })}
                >
                  <IconDots size={18} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconPencil size={15} />} onClick={() => onEdit(santito)}>
                  {t('santitos.edit')}
                </Menu.Item>
                <Menu.Item
                  color="error"
                  leftSection={<IconTrash size={15} />}
                  onClick={() => onDelete(santito)}
                >
                  {t('santitos.delete')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed" lineClamp={3} style={{ flex: 1 }}>
          {santito.description || t('santitos.no_description')}
        </Text>
        {santito.starters.length > 0 ? (
          <Text size="xs" c="dimmed" lineClamp={1}>
            “{santito.starters[0]}”
          </Text>
        ) : null}
        <Button
          component={Link}
          to={lp(newChatPath(santito._id))}
          variant="light"
          leftSection={<IconMessagePlus size={16} />}
          aria-label={t('santitos.start_chat_with', { name: santito.name })}
        >
          {t('santitos.start_chat')}
        </Button>
      </Stack>
    </Card>
  );
}

/** `/santitos` (premium): the domain's assistants; Editors create, authors and Admins edit. */
export default function SantitosPage() {
  const { t } = useTranslation();
  const { apiUser } = useAccountSession();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const list = useSantitos(q);
  const remove = useDeleteSantito();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Santito | null>(null);
  const canCreate = apiUser ? createsSantitos(apiUser) : false;
  const santitos = list.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <>
      <PageHeader
        title={t('nav.santitos')}
        description={t('pages.santitos.description')}
        actions={
          canCreate ? (
            <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing({ santito: null })}>
              {t('santitos.new')}
            </Button>
          ) : undefined
        }
      />
      <Stack gap="lg">
        <TextInput
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          placeholder={t('santitos.search')}
          aria-label={t('santitos.search')}
          leftSection={<IconSearch size={16} />}
          maw={420}
          type="search"
        />
        {list.isPending ? (
          <Group justify="center" py="xl">
            <Loader aria-label={t('app.loading')} />
          </Group>
        ) : list.isError ? (
          <Text c="dimmed">{errorMessage(list.error, t('http.fallback_error'))}</Text>
        ) : santitos.length === 0 ? (
          <EmptyPanel
            icon={<IconSparkles size={28} stroke={1.6} />}
            title={q ? t('santitos.no_results') : t('pages.santitos.empty_title')}
            description={canCreate ? t('santitos.empty_editor') : t('pages.santitos.empty_description')}
          >
            {canCreate && !q ? (
              <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing({ santito: null })}>
                {t('santitos.new')}
              </Button>
            ) : null}
          </EmptyPanel>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="santitos-gallery">
            {santitos.map((santito) => (
              <SantitoCard
                key={santito._id}
                santito={santito}
                onEdit={(s) => setEditing({ santito: s })}
                onDelete={setDeleting}
              />
            ))}
          </SimpleGrid>
        )}
        {list.hasNextPage ? (
          <Group justify="center">
            <Button
              variant="default"
              loading={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              {t('santitos.load_more')}
            </Button>
          </Group>
        ) : null}
      </Stack>

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={
          editing?.santito ? t('santitos.edit_title', { name: editing.santito.name }) : t('santitos.new')
        }
        size="lg"
        fullScreen={typeof window !== 'undefined' && window.innerWidth < 600}
      >
        {editing ? (
          <Suspense
            fallback={
              <Group justify="center" py="lg">
                <Loader size="sm" />
              </Group>
            }
          >
            <SantitoForm
              santito={editing.santito}
              onDone={() => setEditing(null)}
              onCancel={() => setEditing(null)}
            />
          </Suspense>
        ) : null}
      </Modal>

      <ConfirmDialog
        opened={deleting !== null}
        title={t('santitos.delete_title')}
        message={t('santitos.delete_confirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('santitos.delete')}
        cancelLabel={t('common.cancel')}
        loading={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, t('http.fallback_error')) : null}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting._id, { onSuccess: () => setDeleting(null) });
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
