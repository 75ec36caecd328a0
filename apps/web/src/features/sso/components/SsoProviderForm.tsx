import {
  newSsoProviderId,
  SsoDefaultRoles,
  type SsoProvider,
  type SsoProviderCreate,
  type SsoProviderUpdate,
  ssoCallbackPath,
} from '@assistente/contracts';
import { Checkbox, PasswordInput, Select, Switch, TagsInput, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { FormDialog } from '../../../ui/FormDialog.tsx';
import { addressText, blockedAddress } from '../../providers/index.ts';
import { useSaveSsoProvider } from '../hooks/useSso.ts';
import { RedirectUri } from './RedirectUri.tsx';

type DefaultRole = (typeof SsoDefaultRoles)[number];

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

function isIssuerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      !url.username &&
      !url.password &&
      !url.search &&
      !url.hash
    );
  } catch {
    return false;
  }
}

/** Add or edit an OpenID Connect provider. The client secret is write-only: empty keeps the stored one. */
export function SsoProviderForm({
  opened,
  provider,
  onClose,
}: {
  opened: boolean;
  provider: SsoProvider | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveSsoProvider();
  const [displayName, setDisplayName] = useState(provider?.displayName ?? '');
  const [issuer, setIssuer] = useState(provider?.issuer ?? '');
  const [clientId, setClientId] = useState(provider?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [removeSecret, setRemoveSecret] = useState(false);
  const [domains, setDomains] = useState<string[]>(provider?.domains ?? []);
  const [autoProvision, setAutoProvision] = useState(provider?.autoProvision ?? false);
  const [defaultRole, setDefaultRole] = useState<DefaultRole>(provider?.defaultRole ?? 'Viewer');
  const [enabled, setEnabled] = useState(provider?.enabled ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A new provider's id is chosen now: its redirect URI can be registered at the provider first.
  const [newId] = useState(newSsoProviderId);
  // The server refused the issuer or could not reach it: what happened, on the field.
  const issuerRefused = save.isError ? blockedAddress(save.error, 'issuer') : undefined;
  /** A field's complaint goes as soon as the field is edited. */
  const clear = (field: string) =>
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _, ...rest } = current;
      return rest;
    });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    const list = domains.map((d) => d.trim().toLowerCase()).filter(Boolean);
    if (!displayName.trim()) next.displayName = t('sso.form.name_required');
    if (!isIssuerUrl(issuer.trim())) next.issuer = t('sso.form.issuer_invalid');
    if (!clientId.trim()) next.clientId = t('sso.form.client_id_required');
    if (list.length === 0) next.domains = t('sso.form.domains_required');
    else if (list.some((d) => !DOMAIN.test(d))) next.domains = t('sso.form.domains_invalid');
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const common = {
      displayName: displayName.trim(),
      issuer: issuer.trim(),
      clientId: clientId.trim(),
      domains: list,
      autoProvision,
      defaultRole,
      enabled,
    };
    if (provider) {
      const body: SsoProviderUpdate = {
        ...common,
        ...(removeSecret
          ? { clientSecret: null }
          : clientSecret.trim()
            ? { clientSecret: clientSecret.trim() }
            : {}),
      };
      save.mutate({ id: provider.id, body }, { onSuccess: onClose });
    } else {
      const body: SsoProviderCreate = {
        id: newId,
        ...common,
        ...(clientSecret.trim() ? { clientSecret: clientSecret.trim() } : {}),
      };
      save.mutate({ id: null, body }, { onSuccess: onClose });
    }
  };

  return (
    <FormDialog
      opened={opened}
      title={provider ? t('sso.form.edit_title', { name: provider.displayName }) : t('sso.add')}
      onClose={onClose}
      onSubmit={submit}
      pending={save.isPending}
      failure={save.isError && !issuerRefused ? apiErrorText(t, save.error) : null}
      submitLabel={provider ? t('common.save') : t('sso.form.add')}
      size="lg"
    >
      <TextInput
        label={t('sso.form.name')}
        description={t('sso.form.name_hint')}
        required
        maxLength={120}
        value={displayName}
        onChange={(e) => {
          setDisplayName(e.currentTarget.value);
          clear('displayName');
        }}
        error={errors.displayName}
        placeholder="Google"
      />
      <TextInput
        label={t('sso.form.issuer')}
        description={t('sso.form.issuer_hint')}
        required
        type="url"
        maxLength={2048}
        value={issuer}
        onChange={(e) => {
          setIssuer(e.currentTarget.value);
          clear('issuer');
          if (issuerRefused) save.reset();
        }}
        error={
          errors.issuer ??
          (issuerRefused ? addressText(t, issuerRefused.reason, issuer, issuerRefused) : undefined)
        }
        placeholder="https://accounts.google.com"
      />
      <TextInput
        label={t('sso.form.client_id')}
        required
        maxLength={512}
        value={clientId}
        onChange={(e) => {
          setClientId(e.currentTarget.value);
          clear('clientId');
        }}
        error={errors.clientId}
        autoComplete="off"
      />
      <PasswordInput
        label={t('sso.form.client_secret')}
        description={
          provider?.hasClientSecret ? t('sso.form.client_secret_keep') : t('sso.form.client_secret_hint')
        }
        value={clientSecret}
        onChange={(e) => setClientSecret(e.currentTarget.value)}
        disabled={removeSecret}
        autoComplete="off"
        maxLength={4096}
      />
      {provider?.hasClientSecret ? (
        <Checkbox
          label={t('sso.form.remove_secret')}
          checked={removeSecret}
          onChange={(e) => setRemoveSecret(e.currentTarget.checked)}
        />
      ) : null}
      <TagsInput
        label={t('sso.form.domains')}
        description={t('sso.form.domains_hint')}
        required
        value={domains}
        onChange={(next) => {
          setDomains(next);
          clear('domains');
        }}
        error={errors.domains}
        placeholder="empresa.com.br"
        splitChars={[',', ' ', ';']}
        maxTags={100}
        clearable
      />
      <Switch
        label={t('sso.form.auto_provision')}
        description={t('sso.form.auto_provision_hint')}
        checked={autoProvision}
        onChange={(e) => setAutoProvision(e.currentTarget.checked)}
      />
      {autoProvision ? (
        <Select
          label={t('sso.form.default_role')}
          data={SsoDefaultRoles.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
          value={defaultRole}
          onChange={(v) => {
            const next = SsoDefaultRoles.find((r) => r === v);
            if (next) setDefaultRole(next);
          }}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      ) : null}
      <Switch
        label={t('sso.form.enabled')}
        checked={enabled}
        onChange={(e) => setEnabled(e.currentTarget.checked)}
      />
      <RedirectUri
        uri={provider ? provider.redirectUri : `${window.location.origin}${ssoCallbackPath(newId)}`}
      />
    </FormDialog>
  );
}
