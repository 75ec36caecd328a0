import { type McpServer, type McpServerCreate, type McpServerUpdate, Roles } from '@assistente/contracts';
import { Input, MultiSelect, PasswordInput, SegmentedControl, Switch, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { FormDialog } from '../../../ui/FormDialog.tsx';
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

type AuthKind = 'none' | 'header';

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
  const [displayName, setDisplayName] = useState(server?.displayName ?? '');
  const [url, setUrl] = useState(server?.url ?? '');
  const [authKind, setAuthKind] = useState<AuthKind>(server?.auth.kind ?? 'none');
  const [headerName, setHeaderName] = useState(
    server?.auth.kind === 'header' ? server.auth.name : 'Authorization',
  );
  const [headerValue, setHeaderValue] = useState('');
  const [roles, setRoles] = useState<string[]>(server?.visibleTo.roles ?? []);
  const [enabled, setEnabled] = useState(server?.enabled ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const urlRefused = save.isError ? blockedAddress(save.error, 'url') : undefined;
  const storedValue = server?.auth.kind === 'header' && server.auth.hasValue;
  const clear = (field: string) =>
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _, ...rest } = current;
      return rest;
    });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (!displayName.trim()) next.displayName = t('mcp.form.name_required');
    if (!isServerUrl(url.trim())) next.url = t('mcp.form.url_invalid');
    if (authKind === 'header') {
      if (!HEADER_NAME.test(headerName.trim())) next.headerName = t('mcp.form.header_name_invalid');
      if (!headerValue && !storedValue) next.headerValue = t('mcp.form.header_value_required');
    }
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const auth =
      authKind === 'header'
        ? { kind: 'header' as const, name: headerName.trim(), ...(headerValue ? { value: headerValue } : {}) }
        : { kind: 'none' as const };
    const body: McpServerCreate & McpServerUpdate = {
      displayName: displayName.trim(),
      url: url.trim(),
      auth,
      visibleTo: {
        roles: Roles.filter((r) => roles.includes(r)),
        departments: server?.visibleTo.departments ?? [],
      },
      enabled,
    };
    save.mutate(server ? { id: server.id, body } : { id: null, body }, { onSuccess: onClose });
  };

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
        value={displayName}
        onChange={(e) => {
          setDisplayName(e.currentTarget.value);
          clear('displayName');
        }}
        error={errors.displayName}
        placeholder="GitHub"
      />
      <TextInput
        label={t('mcp.form.url')}
        description={t('mcp.form.url_hint')}
        required
        type="url"
        maxLength={2048}
        value={url}
        onChange={(e) => {
          setUrl(e.currentTarget.value);
          clear('url');
          if (urlRefused) save.reset();
        }}
        error={errors.url ?? (urlRefused ? addressText(t, urlRefused.reason, url, urlRefused) : undefined)}
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
            value={headerName}
            onChange={(e) => {
              setHeaderName(e.currentTarget.value);
              clear('headerName');
            }}
            error={errors.headerName}
            autoComplete="off"
          />
          <PasswordInput
            label={t('mcp.form.header_value')}
            description={storedValue ? t('mcp.form.header_value_keep') : t('mcp.form.header_value_hint')}
            required={!storedValue}
            value={headerValue}
            onChange={(e) => {
              setHeaderValue(e.currentTarget.value);
              clear('headerValue');
            }}
            error={errors.headerValue}
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
