import {
  type Domain,
  DomainCreateSchema,
  DomainUpdateSchema,
  formatCnpj,
  isValidCnpj,
} from '@assistente/contracts';
import { Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { type IssueKeys, schemaErrors, validateWith } from '../../../lib/validation/schemaErrors.ts';
import { FormDialog, useSubmitFailure } from '../../../ui/FormDialog.tsx';
import { useCreateDomain, useUpdateDomain } from '../hooks/useDomains.ts';

interface Values {
  domain: string;
  displayName: string;
  cnpj: string;
  premium: boolean;
  isTrusted: boolean;
  active: boolean;
}

const ISSUE_KEYS: IssueKeys = { cnpj: 'validation.cnpj', domain: 'validation.domain_name' };

const emptyValues: Values = {
  domain: '',
  displayName: '',
  cnpj: '',
  premium: false,
  isTrusted: true,
  active: true,
};

const createBody = (v: Values) => ({
  domain: v.domain,
  displayName: v.displayName,
  cnpj: v.cnpj.trim(),
  premium: v.premium,
  isTrusted: v.isTrusted,
});
const updateBody = (v: Values) => ({
  displayName: v.displayName,
  cnpj: v.cnpj.trim(),
  premium: v.premium,
  isTrusted: v.isTrusted,
  active: v.active,
});

/**
 * Creates a domain or edits one (SuperAdmin). The CNPJ is checked by its check digits, numeric or
 * alphanumeric, with the contracts' validator, as the user leaves the field and on submit.
 */
export function DomainDialog({
  opened,
  domain,
  onClose,
  onSaved,
  ownDomain,
}: {
  opened: boolean;
  /** The domain to edit; null creates one. */
  domain: Domain | null;
  onClose: () => void;
  onSaved: (domain: Domain, created: boolean) => void;
  /** The SuperAdmin's own domain cannot be deactivated. */
  ownDomain: string;
}) {
  const { t } = useTranslation();
  const { failure, clear: clearFailure, fail } = useSubmitFailure();
  const create = useCreateDomain();
  const update = useUpdateDomain();
  const pending = create.isPending || update.isPending;
  const editing = domain !== null;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: emptyValues,
    validate: (values) =>
      editing
        ? schemaErrors(DomainUpdateSchema, updateBody(values), t, ISSUE_KEYS)
        : schemaErrors(DomainCreateSchema, createBody(values), t, ISSUE_KEYS),
  });

  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!opened) return;
    const values: Values = domain
      ? {
          domain: domain._id,
          displayName: domain.displayName,
          cnpj: domain.cnpj ? formatCnpj(domain.cnpj) : '',
          premium: domain.premium,
          isTrusted: domain.isTrusted,
          active: domain.active,
        }
      : emptyValues;
    setValues(values);
    resetDirty(values);
    clearFailure();
  }, [opened, domain, setValues, resetDirty, clearFailure]);

  const checkCnpj = () => {
    const cnpj = form.values.cnpj.trim();
    if (cnpj === '') return;
    if (isValidCnpj(cnpj)) form.setFieldValue('cnpj', formatCnpj(cnpj));
    else form.setFieldError('cnpj', t('validation.cnpj'));
  };

  const submit = form.onSubmit(async (values) => {
    clearFailure();
    try {
      let saved: Domain;
      if (domain) {
        const parsed = validateWith(DomainUpdateSchema, updateBody(values), t, ISSUE_KEYS);
        if (!parsed.ok) return;
        saved = await update.mutateAsync({ id: domain._id, body: parsed.data });
      } else {
        const parsed = validateWith(DomainCreateSchema, createBody(values), t, ISSUE_KEYS);
        if (!parsed.ok) return;
        saved = await create.mutateAsync(parsed.data);
      }
      onSaved(saved, !domain);
    } catch (error) {
      fail(error, domain ? undefined : () => form.setFieldError('domain', t('domains.errors.taken')));
    }
  });

  return (
    <FormDialog
      opened={opened}
      title={t(editing ? 'domains.edit.title' : 'domains.create.title')}
      onClose={onClose}
      onSubmit={submit}
      pending={pending}
      failure={failure}
      submitLabel={t(editing ? 'common.save' : 'common.create')}
      size="lg"
    >
      <TextInput
        label={t('domains.fields.domain')}
        description={editing ? undefined : t('domains.fields.domain_hint')}
        placeholder="empresa.com.br"
        required
        disabled={editing}
        autoCapitalize="none"
        spellCheck={false}
        data-autofocus={editing ? undefined : true}
        {...form.getInputProps('domain')}
      />
      <TextInput
        label={t('domains.fields.name')}
        required
        data-autofocus={editing ? true : undefined}
        {...form.getInputProps('displayName')}
      />
      <TextInput
        label={t('domains.fields.cnpj')}
        description={t('domains.fields.cnpj_hint')}
        placeholder="12.ABC.345/01DE-35"
        autoCapitalize="characters"
        spellCheck={false}
        {...form.getInputProps('cnpj')}
        onBlur={checkCnpj}
      />
      <Switch
        label={t('domains.fields.premium')}
        description={t('domains.fields.premium_hint')}
        {...form.getInputProps('premium', { type: 'checkbox' })}
      />
      <Switch
        label={t('domains.fields.trusted')}
        description={t('domains.fields.trusted_hint')}
        {...form.getInputProps('isTrusted', { type: 'checkbox' })}
      />
      {editing ? (
        <Switch
          label={t('domains.fields.active')}
          description={t('domains.fields.active_hint')}
          disabled={domain?._id === ownDomain}
          {...form.getInputProps('active', { type: 'checkbox' })}
        />
      ) : null}
    </FormDialog>
  );
}
