import type { Santito } from '@assistente/contracts';
import { IconSparkles } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { fetchBlob } from '../../auth/index.ts';
import classes from './SantitoAvatar.module.css';

/** A santito's face: its emoji, its uploaded image (fetched with the session's token), or a sparkle. */
export function SantitoAvatar({
  santito,
  size = 44,
}: {
  santito: Pick<Santito, 'avatar' | 'avatarUrl' | 'name'>;
  size?: number;
}) {
  const [src, setSrc] = useState<string | null>(null);
  const path = santito.avatar ? null : santito.avatarUrl;

  useEffect(() => {
    if (!path) return;
    let url: string | null = null;
    let live = true;
    fetchBlob(path, 'accounts')
      .then(({ blob }) => {
        if (!live) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
      setSrc(null);
    };
  }, [path]);

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
