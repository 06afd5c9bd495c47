/**
 * Uploads: CLIENTS clients at once each POST a BYTES-byte JSON body to URL with Node's own HTTP client,
 * writing it in 64 KiB chunks as a buyer's client would, and report what each read back: the status and
 * error code of the answer, or the socket error (EPIPE, ECONNRESET) when it never got one.
 *
 *   node support/big-upload.mjs <url> <clients> <bytes> [headers as JSON]   -> {"answers":[{"status":413,"code":"payload_too_large"}…],"errors":{}}
 */
import http from 'node:http'

const [url, clients, bytes] = [new URL(process.argv[2]), Number(process.argv[3]), Number(process.argv[4])]
const extra = JSON.parse(process.argv[5] ?? '{}')
const chunk = Buffer.alloc(64 * 1024, 0x20)
const answers = []
const errors = {}
await Promise.all(
  Array.from(
    { length: clients },
    () =>
      new Promise((resolve) => {
        const req = http.request(
          url,
          { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': bytes, ...extra } },
          (res) => {
            const parts = []
            res.on('data', (d) => parts.push(d))
            res.on('end', () => {
              let code = null
              try {
                code = JSON.parse(Buffer.concat(parts).toString()).error?.code ?? null
              } catch {}
              answers.push({ status: res.statusCode, code })
              resolve()
            })
          },
        )
        req.on('error', (e) => {
          errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1
          resolve()
        })
        let sent = 0
        const write = () => {
          while (sent < bytes) {
            const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent))
            sent += part.length
            if (!req.write(part)) return req.once('drain', write)
          }
          req.end()
        }
        write()
      }),
  ),
)
console.log(JSON.stringify({ answers, errors }))
// Node's global agent keeps the connections alive for reuse: done, whatever the server does with them.
process.exit(0)
