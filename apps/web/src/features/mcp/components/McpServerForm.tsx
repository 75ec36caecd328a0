import {
  type McpAuthInput,
  type McpServer,
  type McpServerCreate,
  type McpServerUpdate,
  Roles,
} from '@assistente/contracts';
import { Input, MultiSelect, PasswordInput, SegmentedControl, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { FormDialog } from '../../../ui/FormDialog.tsx';
import { useFormFields } from '../../../ui/hooks/useFormFields.ts';
import { useDepartmentOptions } from '../../departments/index.ts';
import { addressText, blockedAddress } from '../../providers/index.ts';
import { useSaveMcpServer } from '../hooks/useMcpServers.ts';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The contract's bounds on OAuth scopes: 50 at most, each up to 200 characters. */
const MAX_SCOPES = 50;
const MAX_SCOPE_LENGTH = 200;

type AuthKind = McpAuthInput['kind'];
const AUTH_KINDS: readonly AuthKind[] = ['none', 'header', 'oauth'];
const isAuthKind = (value: string): value is AuthKind => (AUTH_KINDS as readonly string[]).includes(value);

/** Space-separated scopes as the contract's list. */
const scopeList = (text: string) => text.split(/\s+/).filter(Boolean);

function isServerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * Add or edit an MCP server: the domain's (an Admin's, with who sees it) or a person's own
 * (`scope: user`, only they see it). Secrets are write-only: an empty header value or client
 * secret keeps the stored one.
 */
export function McpServerForm({
  opened,
  server,
  scope,
  onClose,
}: {
  opened: boolean;
  server: McpServer | null;
  /** Whose server a new one is; an existing one keeps its own. */
  scope: McpServer['scope'];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveMcpServer();
  const forDomain = (server?.scope ?? scope) === 'domain';
  const departments = useDepartmentOptions(null, forDomain);
  const auth = server?.auth;
  const storedValue = auth?.kind === 'header' && auth.hasValue;
  const storedSecret = auth?.kind === 'oauth' && auth.hasClientSecret;
  const [authKind, setAuthKind] = useState<AuthKind>(auth?.kind ?? 'none');
  const { field, onSubmit } = useFormFields(
    {
      displayName: server?.displayName ?? '',
      url: server?.url ?? '',
      headerName: auth?.kind === 'header' ? auth.name : 'Authorization',
      headerValue: '',
      clientId: auth?.kind === 'oauth' ? (auth.clientId ?? '') : '',
      clientSecret: '',
      scopes: auth?.kind === 'oauth' ? auth.scopes.join(' ') : '',
    },
    {
      displayName: (v) => (v.trim() ? null : t('mcp.form.name_required')),
      url: (v) => (isServerUrl(v.trim()) ? null : t('mcp.form.url_invalid')),
      headerName: (v) =>
        authKind !== 'header' || HEADER_NAME.test(v.trim()) ? null : t('mcp.form.header_name_invalid'),
      headerValue: (v) =>
        authKind !== 'header' || v || storedValue ? null : t('mcp.form.header_value_required'),
      scopes: (v) => {
        const list = scopeList(v);
        return authKind !== 'oauth' ||
          (list.length <= MAX_SCOPES && list.every((s) => s.length <= MAX_SCOPE_LENGTH))
          ? null
          : t('mcp.form.scopes_invalid', { max: MAX_SCOPES });
      },
    },
  );
  const [roles, setRoles] = useState<string[]>(server?.visibleTo.roles ?? []);
  const [departmentIds, setDepartmentIds] = useState<string[]>(server?.visibleTo.departments ?? []);
  const [enabled, setEnabled] = useState(server?.enabled ?? true);
  const urlRefused = save.isError ? blockedAddress(save.error, 'url') : undefined;
  const url = field('url');

  const submit = onSubmit((v) => {
    const clientId = v.clientId.trim();
    const authInput: McpAuthInput =
      authKind === 'header'
        ? { kind: 'header', name: v.headerName.trim(), ...(v.headerValue ? { value: v.headerValue } : {}) }
        : authKind === 'oauth'
          ? {
              kind: 'oauth',
              // Without a client id the server registers Assistente itself.
              ...(clientId ? { clientId } : {}),
              ...(v.clientSecret ? { clientSecret: v.clientSecret } : {}),
              scopes: scopeList(v.scopes),
            }
          : { kind: 'none' };
    const body = {
      displayName: v.displayName.trim(),
      url: v.url.trim(),
      auth: authInput,
      // A person's own server is theirs alone: who else sees it does not apply.
      ...(forDomain
        ? { visibleTo: { roles: Roles.filter((r) => roles.includes(r)), departments: departmentIds } }
        : {}),
      enabled,
    } satisfies McpServerUpdate;
    const create: McpServerCreate = { ...body, scope };
    save.mutate(server ? { id: server.id, body } : { id: null, body: create }, { onSuccess: onClose });
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
          onChange={(v) => setAuthKind(isAuthKind(v) ? v : 'none')}
          data={[
            { value: 'none', label: t('mcp.form.auth_none') },
            { value: 'header', label: t('mcp.form.auth_header') },
            { value: 'oauth', label: t('mcp.form.auth_oauth') },
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
      {authKind === 'oauth' ? (
        <>
          <Text size="sm" c="dimmed">
            {t('mcp.form.oauth_hint')}
          </Text>
          <TextInput
            label={t('mcp.form.client_id')}
            description={t('mcp.form.client_id_hint')}
            maxLength={500}
            {...field('clientId')}
            autoComplete="off"
          />
          <PasswordInput
            label={t('mcp.form.client_secret')}
            description={storedSecret ? t('mcp.form.client_secret_keep') : t('mcp.form.client_secret_hint')}
            {...field('clientSecret')}
            autoComplete="off"
            maxLength={4000}
          />
          <TextInput
            label={t('mcp.form.scopes')}
            description={t('mcp.form.scopes_hint')}
            {...field('scopes')}
            autoComplete="off"
            placeholder="read write"
          />
        </>
      ) : null}
      {forDomain ? (
        <>
          <MultiSelect
            label={t('mcp.form.roles')}
            description={t('mcp.form.roles_hint')}
            data={Roles.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
            value={roles}
            onChange={setRoles}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <MultiSelect
            label={t('mcp.form.departments')}
            description={t('mcp.form.departments_hint')}
            data={(departments.data ?? []).map((d) => ({ value: d._id, label: d.displayName }))}
            value={departmentIds}
            onChange={setDepartmentIds}
            clearable
            searchable
            disabled={departments.isPending}
            comboboxProps={{ withinPortal: true }}
          />
        </>
      ) : null}
      <Switch
        label={t('mcp.form.enabled')}
        checked={enabled}
        onChange={(e) => setEnabled(e.currentTarget.checked)}
      />
    </FormDialog>
  );
}
