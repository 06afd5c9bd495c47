/** HTTP/1.1 over a raw TCP socket: what a client does that opens, writes part of a request, or waits. */

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export interface RawSocket {
  /** Writes `text`; resolves with the response once the server closes the connection. */
  send(text: string): Promise<RawResponse>
  /** Writes `text` without waiting. */
  write(text: string): void
  /** The response once the server closes the connection (rejects if it closes without one). */
  response: Promise<RawResponse>
  close(): void
}

function parse(raw: string): RawResponse {
  const head = raw.indexOf('\r\n\r\n')
  const lines = raw.slice(0, head).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(lines[0]!.slice(9, 12)), headers, body: raw.slice(head + 4) }
}

/** A TCP connection to 127.0.0.1:`port`, open. */
export function openSocket(port: number): Promise<RawSocket> {
  return new Promise((opened, failed) => {
    let raw = ''
    let finish!: (response: RawResponse) => void
    let fail!: (error: Error) => void
    const response = new Promise<RawResponse>((resolve, reject) => ((finish = resolve), (fail = reject)))
    response.catch(() => {}) // read by the caller, or not at all
    void Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open: (socket) =>
          opened({
            send: (text) => (socket.write(text), response),
            write: (text) => void socket.write(text),
            response,
            close: () => socket.end(),
          }),
        data: (_, bytes) => void (raw += new TextDecoder().decode(bytes)),
        close: () => {
          if (raw.indexOf('\r\n\r\n') < 0)
            return fail(new Error(`connection closed without a response: ${JSON.stringify(raw.slice(0, 80))}`))
          finish(parse(raw))
        },
        error: (_, e) => fail(e),
        connectError: (_, e) => failed(e),
      },
    })
  })
}

/** One request on its own connection (`Connection: close`). */
export async function rawGet(port: number, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const socket = await openSocket(port)
  const lines = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')
  return socket.send(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${lines}\r\n`)
}
