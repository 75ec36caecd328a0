/** The details dialog's alert image (inline: no request, no broken image offline). */
export function AlertIllustration({ size = 120 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 120 120" role="img" aria-hidden="true" focusable="false">
      <circle cx="60" cy="60" r="56" fill="var(--mantine-color-error-0)" />
      <circle cx="60" cy="60" r="42" fill="var(--mantine-color-error-1)" />
      <path
        d="M60 30c2.4 0 4.6 1.3 5.8 3.4l23.3 40.4c2.6 4.5-.7 10.2-5.8 10.2H36.7c-5.2 0-8.4-5.7-5.8-10.2l23.3-40.4A6.7 6.7 0 0 1 60 30Z"
        fill="var(--mantine-color-error-6)"
      />
      <rect x="56.5" y="45" width="7" height="22" rx="3.5" fill="#fff" />
      <circle cx="60" cy="75" r="4" fill="#fff" />
    </svg>
  );
}
