import type { Santito } from '@assistente/contracts';
import { IconSparkles } from '@tabler/icons-react';
import { useFetchedImage } from '../../auth/index.ts';
import classes from './SantitoAvatar.module.css';

/** A santito's face: its emoji, its uploaded image (fetched with the session's token), or a sparkle. */
export function SantitoAvatar({
  santito,
  size = 44,
}: {
  santito: Pick<Santito, 'avatar' | 'avatarUrl' | 'name'>;
  size?: number;
}) {
  const src = useFetchedImage(santito.avatar ? null : santito.avatarUrl, 'accounts');

  return (
    <span className={classes.avatar} style={{ width: size, height: size, fontSize: size * 0.55 }} aria-hidden>
      {santito.avatar ? (
        santito.avatar
      ) : src ? (
        <img src={src} alt="" className={classes.image} />
      ) : (
        <IconSparkles size={size * 0.5} stroke={1.6} />
      )}
    </span>
  );
}
