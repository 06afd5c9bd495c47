/**
 * Uploads as plain clients do them: CLIENTS clients at once each POST one JSON body to URL with Node's
 * own HTTP client, written whole in one call (`req.end(body)`), and report what each read back: the
 * status and error code of the answer, or the socket error (EPIPE, ECONNRESET) when it never got one.
 *
 * The body is `template` (JSON) with every "$VALUE" string replaced by `valueBytes` letters, then padded
 * with spaces to `padTo` bytes. `connection: "close"` sends without a keep-alive agent (Node's
 * `agent: false`: a `Connection: close` request, as Node before 19 and many scripts send it), so the
 * server closes the connection after its answer; otherwise Node's default keep-alive agent is used.
 *
 *   node support/big-upload.mjs <url> <clients> '{"template":{…},"valueBytes":1048576,"padTo":0,"connection":"close","headers":{}}'
 *   -> {"answers":[{"status":413,"code":"payload_too_large"}…],"errors":{}}
 */
import http from 'node:http'

const [url, clients] = [new URL(process.argv[2]), Number(process.argv[3])]
const spec = JSON.parse(process.argv[4])
let text = JSON.stringify(spec.template).replaceAll('"$VALUE"', JSON.stringify('x'.repeat(spec.valueBytes ?? 0)))
if (spec.padTo > text.length) text += ' '.repeat(spec.padTo - text.length)
const body = Buffer.from(text)
const answers = []
const errors = {}

const one = () =>
  new Promise((resolve) => {
    let answered = false
    const failed = (e) => {
      if (answered) return // the socket closing after a complete answer is not the client's failure
      answered = true
      errors[e.code ?? e.message] = (errors[e.code ?? e.message] ?? 0) + 1
      resolve()
    }
    const req = http.request(
      url,
      {
        method: 'POST',
        ...(spec.connection === 'close' ? { agent: false } : {}),
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...spec.headers },
      },
      (res) => {
        const parts = []
        res.on('data', (d) => parts.push(d))
        res.on('end', () => {
          if (answered) return
          answered = true
          let code = null
          try {
            code = JSON.parse(Buffer.concat(parts).toString()).error?.code ?? null
          } catch {}
          answers.push({ status: res.statusCode, code })
          resolve()
        })
      },
    )
    req.on('error', failed)
    // A write error after the request object is done is emitted on the socket alone.
    req.on('socket', (socket) => socket.on('error', failed))
    req.end(body)
  })

await Promise.all(Array.from({ length: clients }, one))
console.log(JSON.stringify({ answers, errors }))
// Node's global agent keeps the connections alive for reuse: done, whatever the server does with them.
process.exit(0)
