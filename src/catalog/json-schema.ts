import type { TSchema } from '@sinclair/typebox'
import type { RouteSpec } from './types'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** A catalog schema as plain JSON Schema for documents other programs read (discovery, MCP tools): TypeBox's symbol keys dropped. */
export const plainSchema = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema))

/** Everything a caller supplies, path parameters and query (or body) fields, as one JSON Schema object. */
export function routeInputSchema(route: RouteSpec): {
  type: 'object'
  properties: Record<string, Json>
  required: string[]
  additionalProperties: false
} {
  const parts = [route.params, route.query].filter((p) => p !== undefined)
  const properties: Record<string, Json> = {}
  const required: string[] = []
  for (const part of parts) {
    for (const [name, schema] of Object.entries(part.properties)) properties[name] = plainSchema(schema as TSchema)
    required.push(...(part.required ?? []))
  }
  return { type: 'object', properties, required, additionalProperties: false }
}
