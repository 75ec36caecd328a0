// The chunk LazyDrawer.tsx loads: Mantine's Drawer with what it brings along (focus trap, scroll
// area, the floating-ui hooks they use).
export { Drawer as default } from '@mantine/core';
