import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Deep indigo: the product's primary colour. */
const primary: MantineColorsTuple = [
  '#eef0ff',
  '#dcdefa',
  '#b5b9f0',
  '#8b92e7',
  '#6870df',
  '#525ada',
  '#464fd8',
  '#3840c0',
  '#3038ab',
  '#252e97',
];

/** Teal, for secondary actions and highlights. */
const secondary: MantineColorsTuple = [
  '#e5fbf8',
  '#d3f4ef',
  '#a9e8df',
  '#7bdbcd',
  '#56d0bf',
  '#3fc9b5',
  '#30c5b1',
  '#1fad9a',
  '#0e9a88',
  '#008574',
];

/** Amber accent: warnings and any popup status that is not error/success/info. */
const accent: MantineColorsTuple = [
  '#fff8e1',
  '#ffefcc',
  '#ffdd9b',
  '#ffca64',
  '#ffba38',
  '#ffb01b',
  '#ffab09',
  '#e39500',
  '#ca8400',
  '#af7100',
];

/** Cool slate greys for surfaces, borders and secondary text. */
const neutral: MantineColorsTuple = [
  '#f6f7f9',
  '#eceef2',
  '#d8dce4',
  '#bfc5d1',
  '#a3abbb',
  '#8d96a9',
  '#6f7890',
  '#596178',
  '#434a5f',
  '#2d3346',
];

const error: MantineColorsTuple = [
  '#ffeaec',
  '#fdd4d6',
  '#f4a7ac',
  '#ec777e',
  '#e64f57',
  '#e3353f',
  '#e22732',
  '#c91a25',
  '#b41220',
  '#9e0419',
];

/** The single light theme (docs/ARCHITECTURE.md#shell-routes-and-guards "UI configuration"); md = 60em = the 960 px mobile breakpoint. */
export const theme = createTheme({
  primaryColor: 'primary',
  primaryShade: 7,
  colors: { primary, secondary, accent, neutral, error, red: error },
  black: '#171a2c',
  white: '#ffffff',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: {
    fontFamily:
      'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    fontWeight: '650',
  },
  defaultRadius: 'md',
  cursorType: 'pointer',
  breakpoints: { xs: '36em', sm: '48em', md: '60em', lg: '75em', xl: '88em' },
  other: { mobileBreakpointPx: 960 },
});
