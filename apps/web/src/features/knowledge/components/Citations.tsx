import type { Citation } from '@assistente/contracts';
import { Anchor, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconFile } from '@tabler/icons-react';
import { saveBlob } from '../../../lib/http/authorizedRequest.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { reportError } from '../../../lib/reporting.ts';
import { fetchBlob } from '../../auth/index.ts';

const isExternal = (url: string) => /^https?:\/\//i.test(url);

/** An uploaded document is behind the bearer token: fetched, then handed to the browser. */
async function openDocument(url: string, title: string): Promise<void> {
  const { blob } = await fetchBlob(url, 'accounts');
  saveBlob(blob, title);
}

/**
 * The numbered sources under an answer: `[n]` in the text is the n-th source, and `shown` (1-based
 * numbers) are those listed, keeping their numbers; `anchorOf(n)` is the id of the n-th's entry.
 */
export function Citations({
  citations,
  shown,
  anchorOf,
}: {
  citations: readonly Citation[];
  shown: readonly number[];
  anchorOf: (n: number) => string;
}) {
  const { t } = useTranslation();
  const listed = shown.flatMap((n) => {
    const c = citations[n - 1];
    return c ? [{ n, c }] : [];
  });
  if (listed.length === 0) return null;
  return (
    <Stack
      gap={2}
      mt={6}
      component="section"
      aria-label={t('knowledge.citations.title')}
      data-testid="citations"
    >
      <Text size="xs" fw={600} c="dimmed">
        {t('knowledge.citations.title')}
      </Text>
      <ol style={{ margin: 0, paddingInlineStart: 20 }}>
        {listed.map(({ n, c }) => (
          <li key={n} value={n} id={anchorOf(n)} style={{ fontSize: 'var(--mantine-font-size-sm)' }}>
            {isExternal(c.url) ? (
              <Anchor href={c.url} target="_blank" rel="noopener noreferrer" size="sm">
                {c.title} <IconExternalLink size={12} aria-hidden />
              </Anchor>
            ) : (
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() =>
                  void openDocument(c.url, c.title).catch((err: unknown) => reportError(err, 'knowledge'))
                }
              >
                <IconFile size={12} aria-hidden /> {c.title}
              </Anchor>
            )}
          </li>
        ))}
      </ol>
    </Stack>
  );
}
