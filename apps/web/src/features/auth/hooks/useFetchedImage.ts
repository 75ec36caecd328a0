import { useEffect, useState } from 'react';
import type { ProductService } from '../../../lib/http/authorizedRequest.ts';
import { fetchBlob } from '../requests.ts';

/** An image behind the bearer token and where its fetch stands; `idle` when there is no path. */
export interface FetchedImage {
  src: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
}

const IDLE: FetchedImage = { src: null, status: 'idle' };

/**
 * An image behind the bearer token, as an object URL an `<img>` can show (it cannot send the
 * token itself), with whether it is still on its way or could not be fetched. Revoked when the
 * path changes or the component goes away.
 */
export function useFetchedImageState(path: string | null, service: ProductService): FetchedImage {
  const [image, setImage] = useState<FetchedImage>(IDLE);
  useEffect(() => {
    if (!path) return;
    let url: string | null = null;
    let live = true;
    setImage({ src: null, status: 'loading' });
    fetchBlob(path, service)
      .then(({ blob }) => {
        if (!live) return;
        url = URL.createObjectURL(blob);
        setImage({ src: url, status: 'ready' });
      })
      .catch(() => {
        if (live) setImage({ src: null, status: 'failed' });
      });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
      setImage(IDLE);
    };
  }, [path, service]);
  return image;
}

/** The object URL of an image behind the bearer token; null until it has arrived or when it cannot be fetched. */
export function useFetchedImage(path: string | null, service: ProductService): string | null {
  return useFetchedImageState(path, service).src;
}
