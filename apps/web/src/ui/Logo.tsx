import { Group, Text } from '@mantine/core';

/** The product mark: the favicon drawing, as an image (no JavaScript for it). */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <img
      src={`${import.meta.env.BASE_URL}favicon.svg`}
      width={size}
      height={size}
      alt=""
      aria-hidden="true"
      style={{ display: 'block', flex: 'none' }}
    />
  );
}

/** Mark and name. */
export function Logo({ name, size = 32 }: { name: string; size?: number }) {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} />
      <Text
        fw={700}
        fz={size * 0.56}
        c="var(--mantine-color-black)"
        lh={1}
        style={{ letterSpacing: '-0.01em' }}
      >
        {name}
      </Text>
    </Group>
  );
}
