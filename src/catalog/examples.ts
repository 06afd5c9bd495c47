import type { TSchema } from '@sinclair/typebox'
import type { RouteSpec } from './types'

/** The schema's first example, else its default: what the catalog documents as a valid value (undefined: none). */
export const documentedValue = (schema: TSchema): unknown => (schema.examples as unknown[] | undefined)?.[0] ?? schema.default

/** The values a parameter allows when it is a choice (a union of literals), else none. */
export const allowedValues = (schema: TSchema): unknown[] =>
  ((schema.anyOf as { const?: unknown }[] | undefined) ?? []).map((branch) => branch.const).filter((value) => value !== undefined)

function sample(route: RouteSpec, name: string, schema: TSchema): unknown {
  const value = documentedValue(schema)
  if (value === undefined) throw new Error(`catalog route ${route.id}: required parameter "${name}" has no example or default`)
  return value
}

/** Required properties only: optional ones have defaults on the server, and fewer fields mean fewer ways to be wrong. */
function requiredSamples(route: RouteSpec, object: { properties: Record<string, TSchema>; required?: string[] }): Record<string, unknown> {
  const required = new Set(object.required ?? [])
  return Object.fromEntries(
    Object.entries(object.properties)
      .filter(([name]) => required.has(name))
      .map(([name, schema]) => [name, sample(route, name, schema)]),
  )
}

/** A valid example call of a route, from the catalog's parameter examples: path parameters, the filled path, and the input fields. */
export function exampleCall(route: RouteSpec): { params: Record<string, unknown>; path: string; input: Record<string, unknown> } {
  const params = route.params ? requiredSamples(route, route.params) : {}
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`catalog route ${route.id}: path parameter "${name}" has no schema`)
    return encodeURIComponent(String(params[name]))
  })
  return { params, path, input: requiredSamples(route, route.query) }
}
