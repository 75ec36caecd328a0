// The chunk DeferredFloating.tsx loads: Mantine's Tooltip and Menu with what they bring along
// (the floating-ui positioning engine, Popover, focus trap, portal).
export { Menu, Tooltip } from '@mantine/core';
