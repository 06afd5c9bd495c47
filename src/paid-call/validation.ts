import type { TObject, TSchema } from '@sinclair/typebox'
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import { Value, type ValueError } from '@sinclair/typebox/value'
import { ApiError, invalidParameter } from '../core'

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

const compiled = new WeakMap<TObject, TypeCheck<TObject>>()

function checkerOf(schema: TObject): TypeCheck<TObject> {
  let check = compiled.get(schema)
  if (!check) {
    check = TypeCompiler.Compile(schema)
    compiled.set(schema, check)
  }
  return check
}

/** TypeBox's Convert truncates "2.5" to 2 for an integer: a parameter whose text is not an integer is refused before converting. */
function notIntegerText(schema: TObject, input: Record<string, unknown>): string | undefined {
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = input[name]
    if (property.type === 'integer' && typeof value === 'string' && !/^-?\d+$/.test(value)) return name
  }
  return undefined
}

/**
 * The input of a route checked against one of its schemas (path, query or body), numbers and booleans
 * given as text (a query string's) converted where the schema says so: the input as the handler reads it,
 * or the first problem as our `invalid_parameter` error. The same for every transport.
 */
export function checkedInput(schema: TObject, input: unknown, where: string): Record<string, unknown> {
  // A body may be any JSON: only an object holds parameters.
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw invalidParameter(where, 'must be a JSON object of parameters')
  const check = checkerOf(schema)
  if (check.Check(input)) return input as Record<string, unknown>
  if (notIntegerText(schema, input as Record<string, unknown>) === undefined) {
    const converted = Value.Convert(schema, input) as Record<string, unknown>
    if (check.Check(converted)) return converted
  }
  throw explainInvalid(schema, input as Record<string, unknown>, where)
}

/** The first problem of an input that does not pass its schema, as our `invalid_parameter` error. */
function explainInvalid(schema: TObject, input: Record<string, unknown>, where: string): ApiError {
  const integerText = notIntegerText(schema, input)
  if (integerText !== undefined)
    return describe(integerText, {
      message: 'Expected integer',
      value: input[integerText],
      schema: schema.properties[integerText] as SchemaInfo,
    })
  const converted = Value.Convert(schema, input)
  const first = Value.Errors(schema, converted).First()
  if (!first) return invalidParameter(where, 'invalid request')
  const parameter = first.path.replace(/^\//, '').split('/')[0] || where
  return describe(parameter, first as never, schema.properties)
}
