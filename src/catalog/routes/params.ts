import { Type as t } from '@sinclair/typebox'

/** Reusable parameter schemas. Bounds and formats are documented here once and shown in OpenAPI. */
export const Month = (description = 'Source month, YYYY-MM. Latest available month when omitted.') =>
  t.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description, examples: ['2026-10'] })

export const PlaceName = (description: string, example: string) =>
  t.String({ minLength: 1, maxLength: 64, description, examples: [example] })

export const Limit = (defaultValue: number, maximum: number, what: string) =>
  t.Integer({ minimum: 1, maximum, default: defaultValue, description: `Number of ${what} (1-${maximum}, default ${defaultValue}).` })

export const WeekDate = (description: string, example: string) =>
  t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date', description, examples: [example] })

export const Slug = (description: string, example: string) =>
  t.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 80, description, examples: [example] })

export const Enum = <const V extends readonly [string, ...string[]]>(values: V, description: string) =>
  t.Union(values.map((v) => t.Literal(v)) as never, { description, examples: [values[0]] })

/** Query objects reject unknown parameters so a typo ("destinaton") is a clear 400, not a silently ignored filter. */
export const Query = <P extends Parameters<typeof t.Object>[0]>(properties: P) => t.Object(properties, { additionalProperties: false })
