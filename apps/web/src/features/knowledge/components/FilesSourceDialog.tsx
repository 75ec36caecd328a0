import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useCreateSource } from '../hooks/useKnowledge.ts';

/** Creates a source of uploaded files: only its name, the files come after. */
export function FilesSourceDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateSource();
  const [displayName, setDisplayName] = useState('');
  return (
    <Modal opened={opened} onClose={onClose} title={t('knowledge.files.title')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ kind: 'files', displayName: displayName.trim() }, { onSuccess: onClose });
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('knowledge.display_name')}
            placeholder={t('knowledge.files.placeholder')}
            value={displayName}
            onChange={(e) => setDisplayName(e.currentTarget.value)}
            required
            data-autofocus
          />
          {create.isError ? (
            <Text size="sm" c="error.7" role="alert">
              {errorMessage(create.error, t('knowledge.save_failed'))}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('knowledge.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!displayName.trim()}>
              {t('knowledge.files.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
