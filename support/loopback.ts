/**
 * Real HTTP servers on 127.0.0.1 (port 0) that answer as a test decides: providers, facilitators and
 * vendors played by the test, the requests they received, and a gate that holds an answer back.
 */
import { afterAll, expect } from 'bun:test'
import { ProviderError } from '../src/intelligence/evidence'

/** A real HTTP server on loopback; the handler decides each answer. */
export interface Loopback {
  url: string
  /** Every request it received, in order. */
  requests: { url: URL; headers: Headers; body: string }[]
  stop(): void
}

export function loopback(handler: (req: Request, url: URL, body: string) => Response | Promise<Response>): Loopback {
  const requests: Loopback['requests'] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const body = await req.text()
      requests.push({ url, headers: req.headers, body })
      return handler(req, url, body)
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) }
}

/** `loopback` for one test file: every server it starts is stopped once the file's tests are done. */
export function fileServers(): typeof loopback {
  const started: Loopback[] = []
  afterAll(() => started.forEach((s) => s.stop()))
  return (handler) => {
    const s = loopback(handler)
    started.push(s)
    return s
  }
}

/** A promise the test resolves: lets a server be slow exactly as long as the test wants. */
export function gate() {
  let open!: () => void
  const opened = new Promise<void>((r) => (open = r))
  return { opened, open }
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The error a call fails with, a ProviderError unless `type` says otherwise (the test fails if it does not). */
export async function failure<E extends Error = ProviderError>(
  call: Promise<unknown>,
  type: abstract new (...args: never[]) => E = ProviderError as never,
): Promise<E> {
  try {
    await call
  } catch (error) {
    expect(error).toBeInstanceOf(type)
    return error as E
  }
  throw new Error(`expected a ${type.name}`)
}
