import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
// Embedded as a file so the docs UI works offline and from the compiled binary (no CDN at run time):
// @scalar/api-reference's browser bundle, kept in the repository by scripts/vendor-scalar.ts.
import scalarBundle from '../assets/scalar-api-reference.js' with { type: 'file' }
import { FAMILY_TITLES } from '../../catalog'
import type { PaymentOffer } from '../../payments'
import pkg from '../../../package.json' with { type: 'json' }
import { FAVICON_SVG_PATH } from './favicon'
import { SERVICE_TITLE } from './front-door'
import { readable } from './openapi-readable'

const SCALAR_PATH = '/openapi/assets/scalar.js'

/**
 * Scalar 1.46.4 options that keep the reference page on this server: by default it offers features
 * backed by scalar.com, and on localhost it shows them all. Each line names what it turns off.
 */
const SCALAR_LOCAL_ONLY = {
  cdn: SCALAR_PATH, // the bundle from this server, not jsDelivr
  withDefaultFonts: false, // no Inter from fonts.scalar.com: system fonts
  agent: { disabled: true }, // no "Ask AI" agent (it loads a registry through proxy.scalar.com at page load)
  showDeveloperTools: 'never', // no developer toolbar ("Share" uploads the document to api.scalar.com, "Deploy", "Configure")
  hideClientButton: true, // no "Open API Client" link to client.scalar.com with this document's URL
  proxyUrl: '', // "Test request" goes straight to this server, never through proxy.scalar.com
  telemetry: false, // no usage telemetry (unused by 1.46.4, refused in case a patch release adds it)
  favicon: FAVICON_SVG_PATH,
}

/** Where the framework's generated document is served; `/openapi/json` serves it made readable (readable()). */
const GENERATED_SPEC = '/openapi/generated.json'

/**
 * `/openapi` (reference UI) and `/openapi/json`; `servers` makes the UI's examples absolute URLs of this
 * service. The document is the framework's, generated from the catalog's schemas, then made readable once.
 */
export const openapiPlugin = (options: { publicBaseUrl: string; offers: readonly PaymentOffer[] }) => {
  const generator = openapi({
    path: '/openapi',
    specPath: GENERATED_SPEC,
    exclude: { paths: [SCALAR_PATH, GENERATED_SPEC, '/openapi/json'] },
    documentation: {
      info: {
        title: SERVICE_TITLE,
        version: pkg.version,
        description: `Pay-per-request JSON API about the Chinese consumer and marketing market. Every /v1 route is paid with x402 (USDC on ${options.offers
          .map(({ network }) => `${network.name}, \`${network.caip2}\``)
          .join(
            '; or ',
          )}): call it, read the 402 requirements, retry with the proof in the \`x402-payment\` header. Dataset figures are generated sample data.`,
      },
      servers: [{ url: options.publicBaseUrl }],
      tags: [
        ...Object.entries(FAMILY_TITLES).map(([name, description]) => ({ name, description })),
        { name: 'service', description: 'Free service routes' },
      ],
    },
    scalar: { ...SCALAR_LOCAL_ONLY, url: '/openapi/json' } as never,
  })
  let document: string | undefined
  return new Elysia({ name: 'openapi-docs' })
    .get(
      SCALAR_PATH,
      () =>
        new Response(Bun.file(scalarBundle), {
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
        }),
      { detail: { hide: true } },
    )
    .use(generator)
    .get(
      '/openapi/json',
      async () => {
        // The routes are all registered by the first request: made once, then the same bytes.
        document ??= JSON.stringify(readable(await (await generator.handle(new Request(`http://local${GENERATED_SPEC}`))).json()))
        return new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8' } })
      },
      { detail: { hide: true } },
    )
}
