import { type McpServer, type McpServerCreate, type McpServerUpdate, Roles } from '@assistente/contracts';
import { Input, MultiSelect, PasswordInput, SegmentedControl, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { FormDialog } from '../../../ui/FormDialog.tsx';
import { useFormFields } from '../../../ui/hooks/useFormFields.ts';
import { addressText, blockedAddress } from '../../providers/index.ts';
import { useSaveMcpServer } from '../hooks/useMcpServers.ts';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function isServerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** Add or edit an MCP server. The header's value is write-only: empty keeps the stored one. */
export function McpServerForm({
  opened,
  server,
  onClose,
}: {
  opened: boolean;
  server: McpServer | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveMcpServer();
  const storedValue = server?.auth.kind === 'header' && server.auth.hasValue;
  const [authKind, setAuthKind] = useState<'none' | 'header'>(server?.auth.kind ?? 'none');
  const { field, onSubmit } = useFormFields(
    {
      displayName: server?.displayName ?? '',
      url: server?.url ?? '',
      headerName: server?.auth.kind === 'header' ? server.auth.name : 'Authorization',
      headerValue: '',
    },
    {
      displayName: (v) => (v.trim() ? null : t('mcp.form.name_required')),
      url: (v) => (isServerUrl(v.trim()) ? null : t('mcp.form.url_invalid')),
      headerName: (v) =>
        authKind !== 'header' || HEADER_NAME.test(v.trim()) ? null : t('mcp.form.header_name_invalid'),
      headerValue: (v) =>
        authKind !== 'header' || v || storedValue ? null : t('mcp.form.header_value_required'),
    },
  );
  const [roles, setRoles] = useState<string[]>(server?.visibleTo.roles ?? []);
  const [enabled, setEnabled] = useState(server?.enabled ?? true);
  const urlRefused = save.isError ? blockedAddress(save.error, 'url') : undefined;
  const url = field('url');

  const submit = onSubmit((v) => {
    const auth =
      authKind === 'header'
        ? {
            kind: 'header' as const,
            name: v.headerName.trim(),
            ...(v.headerValue ? { value: v.headerValue } : {}),
          }
        : { kind: 'none' as const };
    const body: McpServerCreate & McpServerUpdate = {
      displayName: v.displayName.trim(),
      url: v.url.trim(),
      auth,
      visibleTo: {
        roles: Roles.filter((r) => roles.includes(r)),
        departments: server?.visibleTo.departments ?? [],
      },
      enabled,
    };
    save.mutate(server ? { id: server.id, body } : { id: null, body }, { onSuccess: onClose });
  });

  return (
    <FormDialog
      opened={opened}
      title={server ? t('mcp.form.edit_title', { name: server.displayName }) : t('mcp.add')}
      onClose={onClose}
      onSubmit={submit}
      pending={save.isPending}
      failure={save.isError && !urlRefused ? apiErrorText(t, save.error) : null}
      submitLabel={server ? t('common.save') : t('mcp.form.add')}
      size="lg"
    >
      <TextInput
        label={t('mcp.form.name')}
        required
        maxLength={100}
        {...field('displayName')}
        placeholder="GitHub"
      />
      <TextInput
        label={t('mcp.form.url')}
        description={t('mcp.form.url_hint')}
        required
        type="url"
        maxLength={2048}
        value={url.value}
        onChange={(e) => {
          url.onChange(e);
          if (urlRefused) save.reset();
        }}
        error={
          url.error ?? (urlRefused ? addressText(t, urlRefused.reason, url.value, urlRefused) : undefined)
        }
        placeholder="https://mcp.example.com/mcp"
      />
      <Input.Wrapper label={t('mcp.form.auth')} labelProps={{ id: 'mcp-auth-label' }}>
        <SegmentedControl
          aria-labelledby="mcp-auth-label"
          fullWidth
          value={authKind}
          onChange={(v) => setAuthKind(v === 'header' ? 'header' : 'none')}
          data={[
            { value: 'none', label: t('mcp.form.auth_none') },
            { value: 'header', label: t('mcp.form.auth_header') },
          ]}
        />
      </Input.Wrapper>
      {authKind === 'header' ? (
        <>
          <TextInput
            label={t('mcp.form.header_name')}
            required
            maxLength={100}
            {...field('headerName')}
            autoComplete="off"
          />
          <PasswordInput
            label={t('mcp.form.header_value')}
            description={storedValue ? t('mcp.form.header_value_keep') : t('mcp.form.header_value_hint')}
            required={!storedValue}
            {...field('headerValue')}
            autoComplete="off"
            maxLength={4000}
          />
        </>
      ) : null}
      <MultiSelect
        label={t('mcp.form.roles')}
        description={t('mcp.form.roles_hint')}
        data={Roles.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
        value={roles}
        onChange={setRoles}
        clearable
        comboboxProps={{ withinPortal: true }}
      />
      <Switch
        label={t('mcp.form.enabled')}
        checked={enabled}
        onChange={(e) => setEnabled(e.currentTarget.checked)}
      />
    </FormDialog>
  );
}
