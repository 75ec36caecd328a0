import { IconPlugConnected } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { EmptyPanel } from '../../ui/EmptyPanel.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';

/** `/integration` (premium, Admin+): knowledge sources, embeds, editor, API keys. */
export default function IntegrationPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.integration')} description={t('pages.integration.description')} />
      <EmptyPanel
        icon={<IconPlugConnected size={28} stroke={1.6} />}
        title={t('pages.integration.empty_title')}
        description={t('pages.integration.empty_description')}
      />
    </>
  );
}
