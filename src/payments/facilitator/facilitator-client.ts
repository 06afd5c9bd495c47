import { HTTPFacilitatorClient } from '@x402/core/http'
import { ConfigError, urlOrigin } from '../../core'
import { CDP_CORRELATION, CDP_FACILITATOR_URL, CdpSigner } from './cdp-auth'
import type { CdpApiKey } from './cdp-key'

type FacilitatorPath = 'verify' | 'settle' | 'supported'
const METHOD: Record<FacilitatorPath, 'GET' | 'POST'> = { verify: 'POST', settle: 'POST', supported: 'GET' }

/** The headers of a facilitator call could not be made, so the call was never sent: nothing can have moved. */
export class FacilitatorAuthError extends Error {}

/**
 * @x402/core's client with headers made per call for that call's path only. The base class asks its
 * `createAuthHeaders` for every path on each call: with signed tokens that would mint three per call.
 */
class PerCallHeadersClient extends HTTPFacilitatorClient {
  constructor(
    url: string,
    timeoutMs: number,
    private readonly headersFor: (path: FacilitatorPath) => Promise<Record<string, string>>,
  ) {
    // The base class only asks for headers when this option is set; the override below answers instead.
    super({
      url,
      timeoutMs,
      createAuthHeaders: async () => ({
        verify: await headersFor('verify'),
        settle: await headersFor('settle'),
        supported: await headersFor('supported'),
      }),
    })
  }

  override async createAuthHeaders(path: string): Promise<{ headers: Record<string, string> }> {
    if (!(path in METHOD)) return { headers: {} }
    try {
      return { headers: await this.headersFor(path as FacilitatorPath) }
    } catch (error) {
      throw new FacilitatorAuthError(
        `could not sign the facilitator ${path} call: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }
}

/** What facilitator mode is configured with (X402_FACILITATOR_URL, _TIMEOUT_SECONDS, _HEADERS, CDP_API_KEY_*). */
export interface FacilitatorSettings {
  facilitatorUrl?: string
  facilitatorTimeoutMs: number
  facilitatorHeaders?: Record<string, string>
  cdpApiKey?: CdpApiKey
}

export interface FacilitatorConnection {
  client: HTTPFacilitatorClient
  /** Where the calls go, as it may be shown: the origin alone (a facilitator's path may carry a key). CDP's facilitator when CDP keys are set and X402_FACILITATOR_URL is not. */
  url: string
  /** How calls authenticate, for the start-up banner: never a header value. */
  auth: string
}

/**
 * The facilitator client of `facilitator` mode. Without CDP keys: X402_FACILITATOR_URL with the static
 * X402_FACILITATOR_HEADERS, if any. With CDP keys: every call carries `Authorization: Bearer <JWT>`
 * signed for that call's method, host and path as the CDP SDK signs it (cdp-auth.ts), plus the static
 * headers; one token is signed at start so a key that cannot sign stops start-up.
 */
export async function connectFacilitator(config: Readonly<FacilitatorSettings>): Promise<FacilitatorConnection> {
  const key = config.cdpApiKey
  const headers = config.facilitatorHeaders
  const timeoutMs = config.facilitatorTimeoutMs
  const names = headers ? `, static headers ${Object.keys(headers).join(', ')}` : ''
  if (!key) {
    const url = config.facilitatorUrl!
    const client = new HTTPFacilitatorClient({
      url,
      timeoutMs,
      ...(headers ? { createAuthHeaders: async () => ({ verify: headers, settle: headers, supported: headers }) } : {}),
    })
    return { client, url: urlOrigin(url), auth: headers ? names.slice(2) : 'no authentication' }
  }
  const url = config.facilitatorUrl ?? CDP_FACILITATOR_URL
  const { host, pathname } = new URL(url)
  const base = pathname.replace(/\/+$/, '')
  let signer: CdpSigner
  try {
    signer = await CdpSigner.of(key)
    await signer.authorization(METHOD.supported, host, `${base}/supported`)
  } catch (error) {
    // Belt and braces: the messages do not quote the key, and this makes sure of it.
    const reason = (error instanceof Error ? error.message : String(error)).replaceAll(key.secret.reveal(), '[redacted]')
    throw new ConfigError('CDP_API_KEY_SECRET', `cannot sign CDP tokens with this key: ${reason}`)
  }
  const headersFor = async (path: FacilitatorPath) => ({
    'Correlation-Context': CDP_CORRELATION,
    ...headers,
    Authorization: await signer.authorization(METHOD[path], host, `${base}/${path}`),
  })
  return {
    client: new PerCallHeadersClient(url, timeoutMs, headersFor),
    url: urlOrigin(url),
    auth: `CDP facilitator auth, key id ${key.id} (${key.algorithm})${names}`,
  }
}
