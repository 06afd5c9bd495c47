import { REQUEST_LIMITS } from './body'

type Handler = (request: Request) => Response | Promise<Response>

/**
 * `handler`, with the rest of an upload it did not read (a refused body: 413, 405, 403) read and dropped
 * before the answer leaves, up to REQUEST_LIMITS.drainBytes. A client that sent `Connection: close`
 * (Node's http.request without a keep-alive agent, HTTP/1.0 clients) has its connection closed by Bun
 * right after the answer; closing with its body still arriving makes the client's kernel reset the
 * connection, and it reads EPIPE instead of the error. Reading first, every client reads its answer.
 * Requests without a body (every GET, the 402 fast path included) pass through untouched.
 */
export function readingWholeUpload(handler: Handler): Handler {
  return (request) => {
    const answer = handler(request)
    if (!request.body) return answer
    return Promise.resolve(answer).then(async (response) => {
      await dropRest(request.body)
      return response
    })
  }
}

/** Reads and drops what is left of a body no one is reading, at most drainBytes (Bun cuts a larger one itself). */
async function dropRest(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body || body.locked) return
  const reader = body.getReader()
  let read = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      read += value.byteLength
      if (read > REQUEST_LIMITS.drainBytes) break
    }
    await reader.cancel()
  } catch {
    // The client went away or Bun cut the body: nothing is left to read.
  }
}
