import type { ExportRequest } from '@assistente/contracts';
import { Stack } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { authServices } from '../../auth/index.ts';
import { createDataExportApi } from '../api.ts';
import { useExportDownload } from '../hooks/useExportDownload.ts';
import { ExportContents, ExportStatus, exportFailureText } from './ExportStatus.tsx';

/** Whose data an Admin exports: a person, or a department's people. */
export type ExportSubject =
  | { kind: 'user'; id: string; name: string; email: string }
  | { kind: 'department'; id: string; name: string };

/**
 * An Admin's export of a person or a department (a data-subject request): asks first, saying it is
 * recorded in the audit log, then downloads the ZIP with its progress.
 */
export function ExportDataDialog({
  subject,
  onClose,
}: {
  subject: ExportSubject | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const popup = usePopup();
  const { progress, busy, start, reset } = useExportDownload();
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };
  const confirm = async () => {
    if (!subject) return;
    const request: ExportRequest =
      subject.kind === 'user' ? { userId: subject.id } : { departmentId: subject.id };
    const saved = await start(() => createDataExportApi(authServices().accountHttp).create(request));
    if (saved) {
      void popup.show({ status: 'success', title: t('dataExport.admin.done'), description: saved });
      reset();
      onClose();
    }
  };
  const keys = subject?.kind === 'department' ? 'dataExport.admin.department' : 'dataExport.admin.user';
  return (
    <ConfirmDialog
      opened={subject !== null}
      title={subject ? t(`${keys}.title`, { name: subject.name }) : ''}
      message={
        subject
          ? t(`${keys}.message`, { name: subject.name, email: subject.kind === 'user' ? subject.email : '' })
          : ''
      }
      confirmLabel={t('dataExport.admin.confirm')}
      cancelLabel={t('common.cancel')}
      danger={false}
      loading={busy}
      error={progress.phase === 'error' ? exportFailureText(t, progress.error) : null}
      onConfirm={() => void confirm()}
      onClose={close}
    >
      <Stack gap="sm" data-testid="data-export-dialog">
        <ExportContents />
        <ExportStatus progress={progress} showError={false} />
      </Stack>
    </ConfirmDialog>
  );
}
