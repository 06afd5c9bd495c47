import type { TObject, TSchema } from '@sinclair/typebox'
import { Value, type ValueError } from '@sinclair/typebox/value'
import { ApiError, invalidParameter } from '../core/errors'

type SchemaInfo = TSchema & { anyOf?: { const?: unknown }[]; minimum?: number; maximum?: number; pattern?: string }

/** One readable reason for a TypeBox error on one parameter; allowed values where the schema lists them. */
function describe(
  parameter: string,
  error: Pick<ValueError, 'message' | 'value'> & { schema: SchemaInfo },
  properties?: Record<string, unknown>,
): ApiError {
  if (properties && !(parameter in properties)) return invalidParameter(parameter, 'unknown parameter', Object.keys(properties))
  if (error.value === undefined) return invalidParameter(parameter, 'is required')
  const schema = error.schema
  const literals = schema.anyOf?.map((x) => x.const).filter((c) => c !== undefined)
  if (literals?.length) return invalidParameter(parameter, `must be one of ${literals.join(', ')}`, literals)
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    return invalidParameter(parameter, `must be an integer from ${schema.minimum ?? '-∞'} to ${schema.maximum ?? '∞'}`)
  if (schema.pattern)
    return invalidParameter(parameter, `does not match the expected format${schema.description ? ` (${schema.description})` : ''}`)
  return invalidParameter(parameter, error.message.toLowerCase())
}

const strictCache = new WeakMap<TObject, TObject>()

/**
 * Elysia's `t.Integer`/`t.Numeric` are unions of a numeric string and a number; plain TypeBox would
 * accept any numeric string through the string branch. Keep only the numeric branch for explaining.
 */
function strict(schema: TObject): TObject {
  let out = strictCache.get(schema)
  if (!out) {
    const properties: Record<string, TSchema> = {}
    for (const [k, p] of Object.entries(schema.properties)) {
      const numeric = ((p as { anyOf?: TSchema[] }).anyOf ?? []).find((b) => b.type === 'integer' || b.type === 'number')
      properties[k] = numeric ?? p
    }
    out = { ...schema, properties } as TObject
    strictCache.set(schema, out)
  }
  return out
}

/**
 * Validates an input object against a route's schema the way Elysia does (query strings converted to
 * numbers where the schema says so) and returns the first problem as our `invalid_parameter` error.
 * Used to explain Elysia's validation failures: its own error objects do not always name the parameter.
 */
export function explainInvalid(elysiaSchema: TObject, input: Record<string, unknown>, where: string): ApiError {
  const schema = strict(elysiaSchema)
  for (const [k, p] of Object.entries(schema.properties)) {
    // TypeBox's Convert truncates "2.5" to 2 for an integer; a non-integer string is the error itself.
    const value = input[k]
    if (p.type === 'integer' && typeof value === 'string' && !/^-?\d+$/.test(value))
      return describe(k, { message: 'Expected integer', value, schema: p as SchemaInfo })
  }
  const converted = Value.Convert(schema, input)
  const first = Value.Errors(schema, converted).First()
  if (!first) return invalidParameter(where, 'invalid request')
  const parameter = first.path.replace(/^\//, '').split('/')[0] || where
  return describe(parameter, first as never, schema.properties)
}
