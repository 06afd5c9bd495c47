import type { Server } from 'bun'
import { freePort } from './ports'

/** How the endpoint behaves: forwards to the chain, refuses connections, accepts and never answers, or answers HTML. */
export type RpcBehaviour = 'up' | 'refused' | 'hangs' | 'garbage'

export interface FlakyRpc {
  /** The endpoint as a hosted RPC names it: the key in the path. */
  url: string
  /** The key in that path, to look for in everything the service prints or stores. */
  key: string
  set(behaviour: RpcBehaviour): Promise<void>
  stop(): Promise<void>
}

/**
 * A JSON-RPC endpoint on loopback in front of a real chain (anvil), shaped like a hosted RPC
 * (`/v3/<key>`), that can be switched to the ways hosted RPCs fail: connection refused (nothing listens),
 * a request that hangs, and an answer that is not JSON-RPC (an error page).
 */
export async function startFlakyRpc(chainUrl: string): Promise<FlakyRpc> {
  const port = await freePort()
  const key = `key${crypto.randomUUID().replaceAll('-', '')}`
  let behaviour: RpcBehaviour = 'up'
  let server: Server<undefined> | null = null
  const listen = () =>
    Bun.serve({
      port,
      hostname: '127.0.0.1',
      idleTimeout: 0,
      async fetch(request) {
        if (behaviour === 'hangs') return new Promise<Response>(() => {}) // released when the server stops
        if (behaviour === 'garbage')
          return new Response('<html><body>502 Bad Gateway</body></html>', { status: 200, headers: { 'content-type': 'text/html' } })
        return fetch(chainUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: await request.text() })
      },
    })
  server = listen()
  return {
    url: `http://127.0.0.1:${port}/v3/${key}`,
    key,
    async set(next) {
      if (server && (next === 'refused' || behaviour === 'hangs')) {
        await server.stop(true)
        server = null
      }
      behaviour = next
      if (!server && next !== 'refused') server = listen()
    },
    async stop() {
      await server?.stop(true)
      server = null
    },
  }
}
