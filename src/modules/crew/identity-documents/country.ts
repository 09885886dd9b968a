import countries from 'i18n-iso-countries'
import { registerFormat } from '../../../lib/validation.js'

// ISO 3166-1 codes as the i18n-iso-countries package knows them; numeric codes are not accepted.
// The package also lists Kosovo's XK/XKK, which are user-assigned codes outside ISO 3166-1.
const NOT_ISO = new Set(['XK', 'XKK'])
const CODES = new Set(
  [...Object.keys(countries.getAlpha2Codes()), ...Object.keys(countries.getAlpha3Codes())].filter((code) => !NOT_ISO.has(code)),
)

export const isCountryCode = (value: string) => CODES.has(value.toUpperCase())

registerFormat('country-code', isCountryCode, 'Value is not an ISO 3166-1 alpha-2 or alpha-3 country code')
