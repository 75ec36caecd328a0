import { Button, Center, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n/index.ts';
import classes from './ErrorPage.module.css';

export interface ErrorPageProps {
  statusCode: number;
  /** The "Voltar" button's element, e.g. a router link to '/'; a plain link to '/' by default. */
  renderBack?: (label: string) => ReactNode;
}

/** The error page (docs/ARCHITECTURE.md#shell-routes-and-guards): status code, title, message and "Voltar" → '/'. */
export function ErrorPage({ statusCode, renderBack }: ErrorPageProps) {
  const { t } = useTranslation();
  const kind = statusCode === 404 ? 'not_found' : 'generic';
  const back = t('error_page.back');
  return (
    <Center mih="100dvh" p="lg" className={classes.page}>
      <Stack align="center" gap="md" maw={520} ta="center" data-testid="error-page">
        <Text className={classes.code} aria-label={t('error_page.status', { code: statusCode })}>
          {statusCode}
        </Text>
        <Title order={1} size="h2">
          {t(`error_page.${kind}.title`)}
        </Title>
        <Text c="dimmed" size="lg">
          {t(`error_page.${kind}.message`)}
        </Text>
        {renderBack ? (
          renderBack(back)
        ) : (
          <Button component="a" href="/" size="md" mt="sm">
            {back}
          </Button>
        )}
      </Stack>
    </Center>
  );
}
