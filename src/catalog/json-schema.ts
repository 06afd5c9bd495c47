import type { TSchema } from '@sinclair/typebox'
import type { RouteSpec } from './types'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/**
 * A catalog schema as plain JSON Schema for documents other programs read (discovery, MCP tools).
 * Elysia's `t.Integer()`/`t.Number()` accept a numeric *string* too (query strings are text); that
 * branch is an HTTP detail, so only the numeric branch is kept. TypeBox's symbol keys are dropped.
 */
export function plainSchema(schema: TSchema): Json {
  const walk = (node: unknown): Json => {
    if (Array.isArray(node)) return node.map(walk)
    if (!node || typeof node !== 'object') return node as Json
    const schemaNode = node as Record<string, unknown> & { anyOf?: { type?: string; format?: string }[] }
    if (schemaNode.anyOf?.length === 2) {
      const numeric = schemaNode.anyOf.find((b) => b.type === 'integer' || b.type === 'number')
      const numericString = schemaNode.anyOf.find((b) => b.type === 'string' && (b.format === 'integer' || b.format === 'numeric'))
      if (numeric && numericString) return walk({ ...numeric, ...omit(schemaNode, 'anyOf') })
    }
    return Object.fromEntries(Object.entries(schemaNode).map(([k, v]) => [k, walk(v)]))
  }
  return walk(schema)
}

const omit = (o: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key))

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
