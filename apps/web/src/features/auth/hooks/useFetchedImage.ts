import { useEffect, useState } from 'react';
import type { ProductService } from '../../../lib/http/authorizedRequest.ts';
import { fetchBlob } from '../requests.ts';

/**
 * An image behind the bearer token, as an object URL an `<img>` can show (it cannot send the
 * token itself); null until it has arrived or when it cannot be fetched. Revoked when the path
 * changes or the component goes away.
 */
export function useFetchedImage(path: string | null, service: ProductService): string | null {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!path) return;
    let url: string | null = null;
    let live = true;
    fetchBlob(path, service)
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
  }, [path, service]);
  return src;
}
