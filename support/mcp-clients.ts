/**
 * The official MCP clients of both protocol eras, connected over HTTP the way an agent developer would:
 * SDK 1.32.2 (the 2025 revisions: `initialize`, then stateless calls) and the 2.4.0 client pinned to
 * the 2026-07-28 revision (no handshake: `server/discover`, an envelope on every request).
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { MODERN_REVISION } from './mcp-messages'

/** What the tests use of either client: the same calls, answers read as plain JSON. */
export interface McpTestClient {
  listTools(): Promise<{ tools: any[] }>
  callTool(request: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<any>
  /** The revision the client and server agreed on. */
  revision(): string | undefined
  close(): Promise<void>
}

export interface McpEra {
  name: string
  /** The revision this client should end up speaking with our server. */
  revision: string
  connect(url: string): Promise<McpTestClient>
}

export const MCP_ERAS: McpEra[] = [
  {
    name: 'SDK 1.32.2, 2025 revisions',
    revision: '2025-11-25',
    async connect(url) {
      const client = new LegacyClient({ name: 'mcp-test-2025', version: '1.0.0' })
      await client.connect(new LegacyTransport(new URL(url)))
      return {
        listTools: () => client.listTools(),
        callTool: (request) => client.callTool(request),
        // The 1.x client keeps the negotiated revision on its transport.
        revision: () => (client.transport as LegacyTransport | undefined)?.protocolVersion,
        close: () => client.close(),
      }
    },
  },
  {
    name: `client 2.4.0 pinned to ${MODERN_REVISION}`,
    revision: MODERN_REVISION,
    async connect(url) {
      const client = new Client({ name: 'mcp-test-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN_REVISION } } })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      return {
        listTools: () => client.listTools(),
        callTool: (request) => client.callTool(request),
        revision: () => client.getNegotiatedProtocolVersion(),
        close: () => client.close(),
      }
    },
  },
]
