import { type Locale, Locales, ProfileUpdateSchema, type User } from '@assistente/contracts';
import { Button, Card, Group, NativeSelect, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { isLocale } from '../../../lib/i18n/locale.ts';
import { useChangeLanguage } from '../../../lib/i18n/useChangeLanguage.ts';
import { schemaErrors } from '../../../lib/validation/schemaErrors.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { ReadOnlyField } from '../../../ui/ReadOnlyField.tsx';
import { useAccountSession } from '../../auth/index.ts';
import { useDepartmentOptions } from '../../departments/index.ts';
import { useProfile, useUpdateProfile } from '../hooks/useSettings.ts';

/** Own name and language (which also switches the interface); the rest of the account, read-only. */
export function ProfileTab({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const { domain } = useAccountSession();
  const profile = useProfile();
  const update = useUpdateProfile();
  const changeLanguage = useChangeLanguage();
  const departments = useDepartmentOptions(user.domain);
  const uiLocale: Locale = isLocale(i18n.language) ? i18n.language : 'pt-BR';
  const form = useForm({
    mode: 'controlled',
    initialValues: { displayName: user.displayName, locale: uiLocale },
    validate: (values) => schemaErrors(ProfileUpdateSchema, values, t),
  });

  const { setValues, resetDirty } = form;
  const loaded = profile.data;
  useEffect(() => {
    if (!loaded) return;
    const values = { displayName: loaded.displayName, locale: loaded.locale ?? uiLocale };
    setValues(values);
    resetDirty(values);
  }, [loaded, uiLocale, setValues, resetDirty]);

  const submit = form.onSubmit(async (values) => {
    try {
      await update.mutateAsync({ displayName: values.displayName.trim(), locale: values.locale });
      resetDirty(values);
      if (values.locale !== i18n.language) changeLanguage(values.locale);
      void popup.show({ status: 'success', title: t('settings.profile.saved') });
    } catch (error) {
      void popup.show({
        status: 'error',
        title: t('settings.profile.save_failed'),
        description: apiErrorText(t, error),
      });
    }
  });

  if (profile.isPending) return <ListSkeleton rows={3} label={t('app.loading')} />;
  if (profile.isError) return <LoadError title={t('settings.errors.load_failed')} query={profile} />;

  const departmentName =
    departments.data?.find((d) => d._id === profile.data.department)?.displayName ?? profile.data.department;

  return (
    <Stack gap="lg">
      <Card withBorder radius="lg" padding="lg">
        <form onSubmit={submit} noValidate>
          <Stack gap="md" maw={520}>
            <Title order={2} size="h4">
              {t('settings.profile.title')}
            </Title>
            <TextInput label={t('users.fields.name')} required {...form.getInputProps('displayName')} />
            <NativeSelect
              label={t('locale.label')}
              description={t('pages.settings.language_description')}
              data={Locales.map((locale) => ({ value: locale, label: t(`locale.names.${locale}`) }))}
              {...form.getInputProps('locale')}
            />
            <Group>
              <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      <Card withBorder radius="lg" padding="lg">
        <Title order={2} size="h4" mb="md">
          {t('settings.profile.account')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <ReadOnlyField label={t('users.fields.email')} value={profile.data.email} />
          <ReadOnlyField label={t('users.fields.role')} value={t(`roles.${profile.data.role}`)} />
          <ReadOnlyField
            label={t('users.fields.domain')}
            value={domain?.displayName || profile.data.domain}
          />
          <ReadOnlyField label={t('users.fields.department')} value={departmentName} />
        </SimpleGrid>
      </Card>
    </Stack>
  );
}
