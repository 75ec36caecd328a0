/** A third-party brand mark, served as a static image (no JavaScript on the login page). */
export function BrandIcon({ name, size = 18 }: { name: 'google' | 'confluence'; size?: number }) {
  return (
    <img
      src={`${import.meta.env.BASE_URL}brand/${name}.svg`}
      width={size}
      height={size}
      alt=""
      aria-hidden="true"
    />
  );
}
