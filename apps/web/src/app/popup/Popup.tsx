import { CloseButton, Text, ThemeIcon, Transition } from '@mantine/core';
import { useStore } from '@mantine/store';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconInfoCircle } from '@tabler/icons-react';
import { type KeyboardEvent, lazy, Suspense } from 'react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { useSwipeToDismiss } from '../../ui/hooks/useSwipeToDismiss.ts';
import { hasPopupDetails, type PopupController, type PopupStatus, popup } from '../../ui/popup/popupStore.ts';
import classes from './Popup.module.css';

const PopupDetailsDialog = lazy(() => import('./PopupDetailsDialog.tsx'));

/** Status → colour and icon; anything unknown is a warning in the accent colour (docs/ARCHITECTURE.md#shell-routes-and-guards). */
export function popupLook(status: PopupStatus) {
  switch (status) {
    case 'error':
      return { color: 'error', Icon: IconCircleX } as const;
    case 'success':
      return { color: 'green', Icon: IconCircleCheck } as const;
    case 'info':
      return { color: 'blue', Icon: IconInfoCircle } as const;
    default:
      return { color: 'accent', Icon: IconAlertTriangle } as const;
  }
}

/** The global snackbar (docs/ARCHITECTURE.md#shell-routes-and-guards "Popup"). */
export function Popup({ controller = popup }: { controller?: PopupController }) {
  const state = useStore(controller.store);
  const { t } = useTranslation();
  const { color, Icon } = popupLook(state.status);
  const clickable = hasPopupDetails(state);
  const swipe = useSwipeToDismiss(controller.hide);

  const onKeyDown = (event: KeyboardEvent) => {
    if (clickable && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      controller.openDetails();
    } else if (event.key === 'Escape') {
      controller.hide();
    }
  };

  return (
    <>
      <div className={classes.anchor}>
        <Transition mounted={state.modelValue} transition="slide-up" duration={250} timingFunction="ease">
          {(styles) => (
            <div className={classes.popup} style={styles} data-testid="popup" data-status={state.status}>
              {/* biome-ignore lint/a11y/noStaticElementInteractions: the role depends on whether it opens details */}
              <div
                className={classes.surface}
                role={clickable ? 'button' : 'status'}
                aria-live="polite"
                tabIndex={clickable ? 0 : undefined}
                data-clickable={clickable || undefined}
                style={{
                  ['--popup-color' as string]: `var(--mantine-color-${color}-6)`,
                  transform: swipe.offset ? `translateX(${swipe.offset}px)` : undefined,
                  opacity: swipe.offset ? Math.max(0.3, 1 - Math.abs(swipe.offset) / 200) : undefined,
                }}
                onClick={clickable ? controller.openDetails : undefined}
                onKeyDown={onKeyDown}
                {...swipe.handlers}
              >
                <ThemeIcon color={color} variant="light" radius="xl" size="lg" aria-hidden>
                  <Icon size={20} stroke={1.8} />
                </ThemeIcon>
                <div className={classes.body}>
                  <Text fw={600} size="sm" lh={1.4}>
                    {state.title}
                  </Text>
                  {state.description ? (
                    <Text size="sm" c="dimmed" lh={1.45}>
                      {state.description}
                    </Text>
                  ) : null}
                  {clickable ? (
                    <Text size="xs" c={`${color}.7`} mt={4} fw={500}>
                      {t('popup.open_details')}
                    </Text>
                  ) : null}
                </div>
                <CloseButton
                  size="sm"
                  aria-label={t('popup.close')}
                  onClick={(event) => {
                    event.stopPropagation();
                    controller.hide();
                  }}
                />
              </div>
            </div>
          )}
        </Transition>
      </div>
      {state.dialogOpen ? (
        <Suspense fallback={null}>
          <PopupDetailsDialog controller={controller} />
        </Suspense>
      ) : null}
    </>
  );
}
