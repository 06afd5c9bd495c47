/**
 * Hostile requests for every catalog route, generated with fast-check: parameters that are valid,
 * missing, unknown, repeated, oversized, numeric, empty, full of control, zero-width, bidi or CJK
 * characters; path parameters likewise; JSON bodies of any shape for the POST routes, deeply nested or
 * not JSON at all; payment headers that are absent, garbage, base64 of garbage, proofs with fields
 * replaced, or real proofs for another amount. Shared by the fuzz test (in process) and
 * scripts/bench-hostile.ts (over HTTP, with figures).
 */
import fc from 'fast-check'
import type { TSchema } from '@sinclair/typebox'
import { CATALOG, type RouteSpec } from '../../src/catalog'
import { exampleCall } from '../../src/catalog/examples'

export interface HostileRequest {
  route: string
  method: 'GET' | 'POST' | 'HEAD'
  path: string
  headers: Record<string, string>
  body?: string
  /** Send a fresh valid proof for the route's price (the runner signs it): reaches the paid handlers. */
  pay: boolean
}

const NASTY = [
  '\u0000',
  '\u200b',
  '\u202e',
  '\n',
  '\r\n',
  '\t',
  '\u0085',
  '\ufeff',
  '%00',
  '%',
  '../',
  '"',
  "'",
  '<script>',
  '\\',
  '#',
  '&',
  '=',
  '?',
  '东京',
  '𝕏',
  '\ud800',
]

/** A parameter value: often plausible, often hostile. */
const value = (examples: unknown[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(examples.length ? examples.map(String) : ['x'])) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 2, arbitrary: fc.array(fc.constantFrom(...NASTY), { maxLength: 8 }).map((xs) => xs.join('')) },
    { weight: 1, arbitrary: fc.integer({ min: -1e9, max: 1e9 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'NaN', 'Infinity', '-0', '1e999', '0x10', '[]', '{}', 'null', 'true') },
    { weight: 1, arbitrary: fc.nat({ max: 20_000 }).map((n) => 'a'.repeat(n)) },
  )

const enc = (s: string) => {
  try {
    return encodeURIComponent(s)
  } catch {
    return escape(s) // lone surrogates: sent as the raw bytes a careless client would send
  }
}

/** Query or body fields: each documented parameter kept, dropped or replaced; unknown and repeated ones added. */
function fields(route: RouteSpec): fc.Arbitrary<[string, string][]> {
  const props = Object.entries((route.query as unknown as { properties: Record<string, TSchema> }).properties)
  const valid = exampleCall(route).input
  return fc
    .tuple(
      ...props.map(
        ([name, schema]) =>
          fc.oneof(
            { weight: 6, arbitrary: fc.constant(name in valid ? [[name, String(valid[name])]] : []) },
            { weight: 1, arbitrary: fc.constant([]) },
            { weight: 3, arbitrary: value((schema.examples as unknown[] | undefined) ?? []).map((v) => [[name, v]]) },
            {
              weight: 1,
              arbitrary: fc.tuple(value([]), value([])).map(([a, b]) => [
                [name, a],
                [name, b],
              ]),
            },
          ) as fc.Arbitrary<[string, string][]>,
      ),
      fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        {
          weight: 1,
          arbitrary: fc.array(
            fc.tuple(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('limit', 'platform', '__proto__', 'constructor')), value([])),
            { minLength: 1, maxLength: 3 },
          ),
        },
      ),
    )
    .map(([...parts]) => parts.flat() as [string, string][])
}

const base64 = (s: string) => Buffer.from(s).toString('base64')

/** What a payment header can be. `proofs` are real proofs (for some route's price), reused across routes. */
const payment = (proofs: readonly string[]): fc.Arbitrary<Record<string, string>> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((s) => ({ 'x402-payment': s.replace(/[\r\n\0]/g, '') })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((j) => ({ 'X-PAYMENT': base64(JSON.stringify(j)) })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...proofs),
          fc.constantFrom(
            'x402Version',
            'scheme',
            'network',
            'payload',
            'signature',
            'authorization',
            'value',
            'to',
            'nonce',
            'validBefore',
          ),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([p, key, v]) => ({
          'x402-payment': base64(JSON.stringify(JSON.parse(Buffer.from(p, 'base64').toString()), (k, old) => (k === key ? v : old))),
        })),
    },
    { weight: 1, arbitrary: fc.constantFrom(...proofs).map((p) => ({ 'PAYMENT-SIGNATURE': p })) },
    { weight: 1, arbitrary: fc.nat({ max: 8_000 }).map((n) => ({ 'x402-payment': 'A'.repeat(n) })) },
  )

/** A JSON body for a POST route: its fields, any JSON, a deep nest, or not JSON at all. */
const body = (route: RouteSpec): fc.Arbitrary<{ body: string; type: string }> =>
  fc.oneof(
    { weight: 3, arbitrary: fields(route).map((f) => ({ body: JSON.stringify(Object.fromEntries(f)), type: 'application/json' })) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((j) => ({ body: JSON.stringify(j), type: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc.nat({ max: 60_000 }).map((n) => ({ body: `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`, type: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 300 }), fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', ''))
        .map(([s, type]) => ({ body: s, type })),
    },
  )

export function hostileRequest(proofs: readonly string[]): fc.Arbitrary<HostileRequest> {
  return fc.constantFrom(...CATALOG).chain((route) => {
    const example = exampleCall(route)
    const pathArb = route.params
      ? fc.oneof(
          fc.constant(example.path),
          value([]).map((v) => route.path.replace(/:(\w+)/g, () => enc(v).slice(0, 500) || 'x')),
        )
      : fc.constant(route.path)
    const methods = [...route.methods, 'HEAD'] as HostileRequest['method'][]
    return fc
      .tuple(fc.constantFrom(...methods), pathArb, fields(route), payment(proofs), body(route), fc.boolean())
      .map(([method, path, f, headers, b, pay]): HostileRequest => {
        if (method === 'POST')
          return {
            route: route.id,
            method,
            path,
            headers: { ...headers, ...(b.type ? { 'content-type': b.type } : {}) },
            body: b.body,
            pay,
          }
        const qs = f.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')
        return { route: route.id, method, path: qs ? `${path}?${qs}` : path, headers, pay }
      })
  })
}

/** `count` requests drawn from `hostileRequest` with a fixed seed, the same every run (scripts/bench-hostile.ts). */
export const sampleHostileRequests = (proofs: readonly string[], count: number, seed: number): HostileRequest[] =>
  fc.sample(hostileRequest(proofs), { numRuns: count, seed })
