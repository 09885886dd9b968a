// Status colours dark enough for white badge text and for text on white to pass WCAG AA (4.5:1) at small
// sizes; Mantine's own green, orange and red shades fall just short of it with white text.
export const GOOD = '#1e6b2e'
export const WARN = '#8a4600'
export const WAITING = '#1c5a96'
export const BAD = '#a51d1d'
export const NEUTRAL = '#495057'
