import { Elysia } from 'elysia'
const variant = process.argv[2]
const body = JSON.stringify({ success: true, data: { status: 'ok' } })
const h = { 'content-type': 'application/json' }
let app = new Elysia({ normalize: false })
if (variant?.includes('req')) app = app.onRequest(({ request }) => { (request as any).x = 1 }) as any
if (variant?.includes('after')) app = app.onAfterResponse(() => {}) as any
if (variant?.includes('err')) app = app.onError(() => new Response('x')) as any
app.get('/health', () => new Response(body, { headers: h }))
app.listen({ port: 39005, hostname: '127.0.0.1' })
