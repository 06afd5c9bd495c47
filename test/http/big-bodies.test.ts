/**
 * An oversized body is answered with its 413 envelope, and the client reads it: the server drains the
 * rest of the upload instead of closing while the client still writes (which its kernel turns into
 * EPIPE or ECONNRESET). Real servers, in the default (local) and facilitator payment modes, and a real
 * Node.js client writing the body as a buyer's would (support/big-upload.mjs).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { REQUEST_LIMITS } from '../../src/http/body'
import { startServer, type StartedServer } from '../../support/server'

const UPLOAD = join(import.meta.dir, '../../support/big-upload.mjs')
const MB = 1024 * 1024

async function upload(url: string, clients: number, bytes: number, headers: Record<string, string> = {}) {
  const proc = Bun.spawn(['node', UPLOAD, url, String(clients), String(bytes), JSON.stringify(headers)], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const out = await new Response(proc.stdout).text()
  expect(await proc.exited).toBe(0)
  return JSON.parse(out) as { answers: { status: number; code: string | number | null }[]; errors: Record<string, number> }
}

const MODES = {
  local: {},
  facilitator: { PAYMENT_MODE: 'facilitator', X402_FACILITATOR_URL: 'http://127.0.0.1:9' },
}

for (const [mode, env] of Object.entries(MODES)) {
  describe(`${mode} mode`, () => {
    let server: StartedServer
    beforeAll(async () => {
      server = await startServer(env)
    })
    afterAll(async () => {
      await server?.stop()
    })

    test('15 clients each posting 8 MB to a wrapper, to MCP (allowed or refused origin) and to a GET-only route all read their answer, none a reset', async () => {
      const targets = [
        ['/v1/visibility/snapshot', 413, 'payload_too_large', {}],
        ['/mcp', 413, 'payload_too_large', {}],
        ['/mcp', 403, -32000, { origin: 'https://evil.example' }], // a JSON-RPC error (ours is in error.data)
        ['/v1/market-data/flights/summary', 405, 'method_not_allowed', {}],
      ] as const
      for (const [path, status, code, headers] of targets) {
        const { answers, errors } = await upload(`${server.url}${path}`, 15, 8 * MB, headers)
        expect([path, errors]).toEqual([path, {}])
        expect([path, answers]).toEqual([path, Array.from({ length: 15 }, () => ({ status, code }))])
      }
    }, 60_000)

    test('the server still answers on the same port afterwards', async () => {
      expect((await fetch(`${server.url}/health`)).status).toBe(200)
    })
  })
}

test('the drain is bounded: bodies are read at most up to REQUEST_LIMITS.drainBytes', () => {
  expect(REQUEST_LIMITS.drainBytes).toBeGreaterThanOrEqual(8 * MB)
  expect(REQUEST_LIMITS.drainBytes).toBeLessThanOrEqual(64 * MB)
})
