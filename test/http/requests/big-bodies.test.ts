/**
 * An oversized body is answered with its error envelope, and the client reads it. Real servers in the
 * three payment modes; a real Node.js client writing the whole body in one call, as plain clients do
 * (support/big-upload.mjs), both over a keep-alive connection and with `Connection: close` (Node's
 * `agent: false`), after which the server closes the connection: there the server must have read the
 * whole upload before it answers, or the client's kernel resets the connection and it reads EPIPE.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { CATALOG } from '../../../src/catalog'
import { REQUEST_LIMITS } from '../../../src/http/requests/body'
import { toolName } from '../../../src/catalog'
import { startServer, type StartedServer } from '../../../support/server'

const UPLOAD = join(import.meta.dir, '../../../support/big-upload.mjs')
const MB = 1024 * 1024
const CLIENTS = 15

interface Upload {
  template: unknown
  valueBytes?: number
  padTo?: number
  connection: 'keep-alive' | 'close'
  headers?: Record<string, string>
}

async function upload(url: string, spec: Upload) {
  const proc = Bun.spawn(['node', UPLOAD, url, String(CLIENTS), JSON.stringify(spec)], { stdout: 'pipe', stderr: 'inherit' })
  const out = await new Response(proc.stdout).text()
  expect(await proc.exited).toBe(0)
  return JSON.parse(out) as { answers: { status: number; code: string | number | null }[]; errors: Record<string, number> }
}

const SELF_KEY = `0x${'11'.repeat(32)}`
const MODES = {
  local: {},
  facilitator: { PAYMENT_MODE: 'facilitator', X402_FACILITATOR_URL: 'http://127.0.0.1:9' },
  // The bodies are refused before any payment step: an RPC that does not answer changes nothing.
  self: { PAYMENT_MODE: 'self', X402_RPC_URL: 'http://127.0.0.1:9', X402_SETTLER_PRIVATE_KEY: SELF_KEY },
}

/** Every POST route: the wrappers with a body of their own fields, /mcp with a call of the same tool. */
const POST_ROUTES = CATALOG.filter((route) => route.methods.includes('POST'))
const fieldsOf = (path: string) =>
  Object.fromEntries(Object.keys(POST_ROUTES.find((r) => r.path === path)!.query.properties).map((name) => [name, '$VALUE']))
const wrapper = POST_ROUTES[0]!
interface Target {
  path: string
  template: unknown
  headers?: Record<string, string>
  status: number
  code: string | number
}
const TARGETS: Target[] = [
  ...POST_ROUTES.map((route) => ({ path: route.path, template: fieldsOf(route.path), status: 413, code: 'payload_too_large' })),
  {
    path: '/mcp',
    template: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: toolName(wrapper), arguments: fieldsOf(wrapper.path) } },
    status: 413,
    code: 'payload_too_large',
  },
  // Answered before the body is read: a refused origin (a JSON-RPC error; ours is in error.data) and a GET-only route.
  {
    path: '/mcp',
    template: { jsonrpc: '2.0', id: 1, method: 'ping' },
    headers: { origin: 'https://evil.example' },
    status: 403,
    code: -32000,
  },
  { path: '/v1/market-data/flights/summary', template: { destination: '$VALUE' }, status: 405, code: 'method_not_allowed' },
]
const SIZES = [
  ['a 1 MB value', { valueBytes: MB }],
  ['an 8 MB body', { valueBytes: 16, padTo: 8 * MB }],
] as const

test('the test covers the three wrappers', () => {
  expect(POST_ROUTES.map((route) => route.path).sort()).toEqual([
    '/v1/destination-demand/snapshot',
    '/v1/kol/shortlist',
    '/v1/visibility/snapshot',
  ])
})

for (const [mode, env] of Object.entries(MODES)) {
  describe(`${mode} mode`, () => {
    let server: StartedServer
    beforeAll(async () => {
      server = await startServer(env)
    })
    afterAll(async () => {
      await server?.stop()
    })

    for (const connection of ['keep-alive', 'close'] as const) {
      test(`${CLIENTS} clients each writing ${SIZES.map(([what]) => what).join(' or ')} whole, connection ${connection}, to every POST route, to MCP (allowed or refused origin) and to a GET-only route: ${CLIENTS} of ${CLIENTS} read their answer`, async () => {
        for (const { path, template, headers, status, code } of TARGETS) {
          for (const [what, size] of SIZES) {
            const { answers, errors } = await upload(`${server.url}${path}`, { template, ...size, connection, headers })
            const label = `${path} ${what}`
            expect([label, errors]).toEqual([label, {}])
            expect([label, answers]).toEqual([label, Array.from({ length: CLIENTS }, () => ({ status, code }))])
          }
        }
      }, 120_000)
    }

    test('the server still answers on the same port afterwards', async () => {
      expect((await fetch(`${server.url}/health`)).status).toBe(200)
    })
  })
}

test('the drain is bounded: bodies are read at most up to REQUEST_LIMITS.drainBytes', () => {
  expect(REQUEST_LIMITS.drainBytes).toBeGreaterThanOrEqual(8 * MB)
  expect(REQUEST_LIMITS.drainBytes).toBeLessThanOrEqual(64 * MB)
})
