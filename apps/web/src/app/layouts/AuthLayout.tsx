import { Alert, Anchor, Text, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { loadedRuntimeConfig, misplacedAppUrl } from '../../lib/config/runtimeConfig.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { LogoMark } from '../../ui/Logo.tsx';
import { LanguageSelect } from '../shell/LanguageSelect.tsx';
import classes from './AuthLayout.module.css';

/** The auth layout: brand panel (from md) and the form card. */
export default function AuthLayout() {
  const { t } = useTranslation();
  const configuredUrl = misplacedAppUrl(loadedRuntimeConfig(), window.location.origin);
  return (
    <div className={classes.root}>
      <aside className={classes.hero} aria-hidden="true">
        <div className={classes.heroInner}>
          <div className={classes.heroBrand}>
            <LogoMark size={40} />
            <Text fw={700} fz={22} c="white">
              {t('app.name')}
            </Text>
          </div>
          <Title order={2} className={classes.heroTitle}>
            {t('auth_layout.headline')}
          </Title>
          {/* A plain list with CSS check marks: Mantine's List and ThemeIcon cost the login page JS. */}
          <ul className={classes.heroList}>
            <li>{t('auth_layout.point_chats')}</li>
            <li>{t('auth_layout.point_santitos')}</li>
            <li>{t('auth_layout.point_editor')}</li>
          </ul>
        </div>
      </aside>
      <div className={classes.side}>
        <header className={classes.top}>
          <div className={classes.mobileBrand}>
            <LogoMark size={32} />
            <Text fw={700} fz={18} className={classes.mobileBrandName}>
              {t('app.name')}
            </Text>
          </div>
          <LanguageSelect />
        </header>
        <main className={classes.main}>
          <div className={classes.card}>
            {configuredUrl ? (
              <Alert color="error" variant="light" mb="lg" role="alert" data-testid="wrong-address">
                {t('auth_layout.wrong_address', { url: configuredUrl })}{' '}
                <Anchor href={`${configuredUrl}/auth/login`} fw={600}>
                  {t('auth_layout.wrong_address_link', { url: configuredUrl })}
                </Anchor>
              </Alert>
            ) : null}
            <Outlet />
          </div>
        </main>
        <footer className={classes.footer}>
          <Text size="xs" c="dimmed">
            {t('auth_layout.footer', { year: new Date().getFullYear() })}
          </Text>
        </footer>
      </div>
    </div>
  );
}
