import { Type as T } from '@sinclair/typebox'

/** Schemas the settings tables share (src/config/settings.ts, src/intelligence/providers/provider-env.ts). */
export const HttpUrl = T.String({ pattern: '^https?://[^\\s/]+(/\\S*)?$' })
export const Millis = (maximum: number) => T.Integer({ minimum: 100, maximum })
/** A USD amount with at most 9 decimals (nano-dollars: a token is priced in fractions of a micro-dollar). */
export const UsdPrice = T.String({ pattern: '^\\d{1,6}(\\.\\d{1,9})?$' })
