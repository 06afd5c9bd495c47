import { afterAll, beforeAll } from 'bun:test'
import { startServer, type StartedServer } from './server'

/**
 * The real service started with `env` before the tests of the enclosing block (or file) and stopped
 * after them; call the returned function inside a test for the started server.
 */
export function serverDuringTests(env: Record<string, string>): () => StartedServer {
  let server: StartedServer | undefined
  beforeAll(async () => {
    server = await startServer(env)
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
  })
  return () => {
    if (!server) throw new Error('the server has not started')
    return server
  }
}
