import { type CSSVariablesResolver, createTheme } from '@mantine/core'

/**
 * Mantine's defaults with text that passes WCAG AA contrast on white: the primary colour one shade
 * darker (links, buttons) and "dimmed" text in a darker grey.
 */
export const theme = createTheme({ primaryShade: 8 })

export const resolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
})
