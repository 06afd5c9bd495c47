import { request, type IncomingHttpHeaders } from 'node:http'

export interface Answer {
  status: number
  headers: IncomingHttpHeaders
  text: string
  json(): any
}

/**
 * One HTTP request over a new connection from a chosen local address (127.0.0.2, 127.0.0.3 ... are all
 * loopback on Linux), so a server sees different clients. fetch cannot pick its source address.
 * Header values may be arrays: each element is sent as its own header line.
 */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string | string[]>; body?: string } = {},
): Promise<Answer> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: init.method ?? 'GET',
        headers: init.headers,
        localAddress,
        agent: false,
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) })
        })
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in 60 s`)))
    req.on('error', reject)
    req.end(init.body)
  })
}

/** Polls `read` until `ok` holds or the deadline passes (logs are flushed every 100 ms, not at once). */
export async function eventually<T>(read: () => T, ok: (value: T) => boolean, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(50)
  }
}
