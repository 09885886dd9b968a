import { Box } from '@mantine/core'
import type { ReactNode } from 'react'

/**
 * A wide table scrolls inside its own box, so the page never scrolls sideways on a phone. The box takes
 * the keyboard focus (a region that scrolls must be reachable without a mouse).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto', maxWidth: '100%' }}>
      {children}
    </Box>
  )
}
