/**
 * What the HTTP server layer (Bun) answers before the application sees a request, as the README
 * documents it; the application itself answers only with the JSON envelope (the fuzz suite checks that).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startServer, type StartedServer } from '../../support/server'

let server: StartedServer
beforeAll(async () => {
  server = await startServer({})
})
afterAll(async () => {
  await server.stop()
})

/** Sends raw bytes and returns everything the server sent back before closing. */
function raw(request: string): Promise<string> {
  const port = Number(new URL(server.url).port)
  return new Promise((resolve) => {
    let out = ''
    void Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open: (socket) => void socket.write(request),
        data: (_, bytes) => void (out += new TextDecoder().decode(bytes)),
        close: () => resolve(out),
        error: () => resolve(out),
      },
    })
  })
}

const statusLine = (response: string) => response.split('\r\n')[0]

describe('the HTTP server layer', () => {
  test('a method the HTTP parser does not know closes the connection without an answer', async () => {
    expect(await raw('BREW /v1/market-data/spend/months HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toBe('')
  })

  test('a malformed request line is answered by the server: 505 or 400, without a body', async () => {
    expect(statusLine(await raw('GET /he alth HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))).toBe(
      'HTTP/1.1 505 HTTP Version Not Supported',
    )
    expect(statusLine(await raw('garbage\r\n\r\n'))).toBe('HTTP/1.1 400 Bad Request')
  })

  test('request heads over the server limit are a 431 from the server', async () => {
    expect((await fetch(`${server.url}/health`, { headers: { 'x-padding': 'a'.repeat(64 * 1024) } })).status).toBe(431)
  })

  test('a known method on a path that does not take it reaches the application: the 405 envelope', async () => {
    const response = await raw('PATCH /health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
    expect(statusLine(response)).toBe('HTTP/1.1 405 Method Not Allowed')
    expect(response).toContain('"code":"method_not_allowed"')
  })
})
