/** Image types the browser shows as a thumbnail beside an attachment's name. */
const THUMBNAIL_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const hasThumbnail = (contentType: string): boolean => THUMBNAIL_TYPES.has(contentType.toLowerCase());
