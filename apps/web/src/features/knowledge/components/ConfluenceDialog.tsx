import type { ConfluenceTestResult } from '@assistente/contracts';
import { Alert, Button, Group, Modal, PasswordInput, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { IconCheck, IconPlugConnected, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { knowledgeApi, useCreateSource } from '../hooks/useKnowledge.ts';
import { knowledgeFailureText } from '../lib/failures.ts';

/** Connects a Confluence Cloud site: its address, account and spaces, tested before it is saved. */
export function ConfluenceDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateSource();
  const [displayName, setDisplayName] = useState('Confluence');
  const [baseUrl, setBaseUrl] = useState('');
  const [email, setEmail] = useState('');
  const [apiToken, setApiToken] = useState('');
  const [spaces, setSpaces] = useState<string[]>([]);
  const [test, setTest] = useState<ConfluenceTestResult | null>(null);
  const [testing, setTesting] = useState(false);
  const [testError, setTestError] = useState<string | null>(null);
  const settings = { baseUrl: baseUrl.trim(), email: email.trim(), apiToken: apiToken.trim(), spaces };
  const complete = Boolean(settings.baseUrl && settings.email && settings.apiToken && spaces.length > 0);

  const runTest = async () => {
    setTesting(true);
    setTestError(null);
    try {
      setTest(await knowledgeApi().testConnection(settings));
    } catch (err) {
      setTest(null);
      setTestError(errorMessage(err, t('knowledge.confluence.test_failed')));
    } finally {
      setTesting(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('knowledge.confluence.title')} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { kind: 'confluence', displayName: displayName.trim(), confluence: settings },
            { onSuccess: onClose },
          );
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('knowledge.display_name')}
            value={displayName}
            onChange={(e) => setDisplayName(e.currentTarget.value)}
            required
          />
          <TextInput
            label={t('knowledge.confluence.base_url')}
            description={t('knowledge.confluence.base_url_hint')}
            placeholder="https://acme.atlassian.net"
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.currentTarget.value)}
            required
          />
          <TextInput
            label={t('knowledge.confluence.email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label={t('knowledge.confluence.api_token')}
            value={apiToken}
            onChange={(e) => setApiToken(e.currentTarget.value)}
            required
          />
          <TagsInput
            label={t('knowledge.confluence.spaces')}
            description={t('knowledge.confluence.spaces_hint')}
            value={spaces}
            onChange={(v) => setSpaces(v.map((s) => s.trim()).filter(Boolean))}
            splitChars={[',', ' ']}
          />
          {test ? (
            test.ok ? (
              <Alert color="secondary" variant="light" icon={<IconCheck size={16} />} role="status" py={6}>
                <Stack gap={2}>
                  {test.spaces.map((s) => (
                    <Text size="sm" key={s.key}>
                      {t('knowledge.confluence.space_pages', {
                        key: s.key,
                        name: s.name,
                        count: s.pages,
                      })}
                    </Text>
                  ))}
                  {test.missing.length > 0 ? (
                    <Text size="sm" c="error.7">
                      {t('knowledge.confluence.missing', { keys: test.missing.join(', ') })}
                    </Text>
                  ) : null}
                </Stack>
              </Alert>
            ) : (
              <Alert color="error" variant="light" icon={<IconX size={16} />} role="alert" py={6}>
                {knowledgeFailureText(t, test.reason, test.message ?? t('knowledge.confluence.test_failed'))}
              </Alert>
            )
          ) : null}
          {testError ? (
            <Text size="sm" c="error.7" role="alert">
              {testError}
            </Text>
          ) : null}
          {create.isError ? (
            <Text size="sm" c="error.7" role="alert">
              {errorMessage(create.error, t('knowledge.save_failed'))}
            </Text>
          ) : null}
          <Group justify="space-between" wrap="wrap">
            <Button
              variant="default"
              leftSection={<IconPlugConnected size={16} />}
              loading={testing}
              disabled={!complete}
              onClick={() => void runTest()}
            >
              {t('knowledge.confluence.test')}
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={onClose}>
                {t('knowledge.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} disabled={!complete || !displayName.trim()}>
                {t('knowledge.confluence.connect')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
