import { allowedValues, CATALOG, documentedValue, httpQuery, type RouteSpec } from '../../catalog'
import type { TSchema } from '@sinclair/typebox'

type Json = Record<string, unknown>

/**
 * The framework's OpenAPI document, made readable for people and for the agents that read it:
 *
 * - A whole number in the query arrives as text, so the framework documents `limit` as
 *   `anyOf: [a string of format integer, the integer]`; the reader is shown the integer.
 * - Every catalog parameter gets a real example from the catalog (its first example, else its default,
 *   else its first allowed value), where the reference UI otherwise shows placeholders ("string", 0).
 */
export function readable(document: Json): Json {
  const byPath = new Map(CATALOG.map((route) => [route.path.replace(/:(\w+)/g, '{$1}'), route]))
  for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    const route = byPath.get(path)
    for (const operation of Object.values(operations)) {
      for (const parameter of (operation.parameters as Json[] | undefined) ?? []) {
        if (parameter.schema) parameter.schema = plainNumber(parameter.schema as Json)
        const documented = route && catalogSchema(route, parameter.name as string, parameter.in as string)
        const example = documented && exampleOf(documented)
        if (example !== undefined) parameter.example = example
        // An enum's description is lost on the way (`format`): the catalog has it.
        const schema = parameter.schema as Json | undefined
        if (schema && !schema.description && documented?.description) schema.description = documented.description
      }
    }
  }
  return document
}

/** `anyOf: [{type: string, format: integer|numeric}, {…the number…}]` as the number alone, with the outer keywords. */
function plainNumber(schema: Json): Json {
  const branches = schema.anyOf as Json[] | undefined
  if (!branches || branches.length !== 2) return schema
  const text = branches.find((b) => b.type === 'string' && (b.format === 'integer' || b.format === 'numeric'))
  const number = branches.find((b) => b !== text)
  if (!text || !number) return schema
  const { anyOf: _, ...outer } = schema
  return { type: text.format === 'integer' ? 'integer' : 'number', ...number, ...outer }
}

/** A parameter's schema as the catalog writes it (with `format` for a table route's query). */
function catalogSchema(route: RouteSpec, name: string, where: string): Json | undefined {
  const object = where === 'path' ? route.params : httpQuery(route)
  return (object?.properties as Record<string, Json> | undefined)?.[name]
}

const exampleOf = (schema: Json): unknown => documentedValue(schema as TSchema) ?? allowedValues(schema as TSchema)[0]
