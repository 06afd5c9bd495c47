import { Elysia } from 'elysia'
import type { RequestLog } from '../requests/request-log'
import { SERVICE_ICON_PATH } from '../../catalog'

export const FAVICON_SVG_PATH = SERVICE_ICON_PATH
export const FAVICON_ICO_PATH = '/favicon.ico'

/**
 * The icon, drawn once as shapes on a 32-unit grid: a red tile with three rising white bars. Both the SVG
 * and the ICO are made from these shapes in code, so the binary carries no image file and the two match.
 */
const TILE = { color: [0xb9, 0x1c, 0x1c], radius: 6 } as const
const BARS = [
  { x: 7, y: 18, w: 4, h: 7 },
  { x: 14, y: 13, w: 4, h: 12 },
  { x: 21, y: 7, w: 4, h: 18 },
] as const

const hex = (rgb: readonly number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`

export const FAVICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
  `<rect width="32" height="32" rx="${TILE.radius}" fill="${hex(TILE.color)}"/>` +
  BARS.map((b) => `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" fill="#fff"/>`).join('') +
  `</svg>`

/** Is the point inside the rounded tile? */
function inTile(across: number, down: number): boolean {
  const radius = TILE.radius
  const cx = Math.min(Math.max(across, radius), 32 - radius)
  const cy = Math.min(Math.max(down, radius), 32 - radius)
  return (across - cx) ** 2 + (down - cy) ** 2 <= radius * radius
}

const inBar = (x: number, y: number) => BARS.some((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h)

/** A 32x32 32-bit ICO (BMP inside), each pixel the average of 4x4 samples so the corners are smooth. */
function icoFromShapes(): Uint8Array<ArrayBuffer> {
  const size = 32
  const samples = 4
  const pixels = size * size * 4
  const mask = size * 4 // 1 bit per pixel, rows padded to 32 bits; all zero: the alpha channel decides
  const header = 6 + 16
  const info = 40
  const out = new Uint8Array(new ArrayBuffer(header + info + pixels + mask))
  const view = new DataView(out.buffer)
  // ICONDIR: reserved, type 1 (icon), one image; ICONDIRENTRY: 32x32, 1 plane, 32 bpp, size, offset.
  view.setUint16(2, 1, true)
  view.setUint16(4, 1, true)
  out[6] = size
  out[7] = size
  view.setUint16(10, 1, true)
  view.setUint16(12, 32, true)
  view.setUint32(14, info + pixels + mask, true)
  view.setUint32(18, header, true)
  // BITMAPINFOHEADER: the height counts the colour rows and the mask rows.
  view.setUint32(header, info, true)
  view.setInt32(header + 4, size, true)
  view.setInt32(header + 8, size * 2, true)
  view.setUint16(header + 12, 1, true)
  view.setUint16(header + 14, 32, true)
  view.setUint32(header + 20, pixels + mask, true)
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      let tile = 0
      let bar = 0
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const across = col + (sx + 0.5) / samples
          const down = row + (sy + 0.5) / samples
          if (inTile(across, down)) tile++
          if (inBar(across, down)) bar++
        }
      }
      const sampleCount = samples * samples
      const white = bar / sampleCount
      const rgb = TILE.color.map((c) => Math.round(c * (1 - white) + 255 * white))
      // Rows are stored bottom-up, pixels as BGRA.
      const at = header + info + ((size - 1 - row) * size + col) * 4
      out[at] = rgb[2]!
      out[at + 1] = rgb[1]!
      out[at + 2] = rgb[0]!
      out[at + 3] = Math.round((255 * tile) / sampleCount)
    }
  }
  return out
}

export const FAVICON_ICO = icoFromShapes()

/** Browsers ask for /favicon.ico by themselves; our pages link the SVG. Both are a day in caches. */
export function faviconRoutes(log: RequestLog) {
  const send = (request: Request, body: string | Uint8Array<ArrayBuffer>, type: string) => {
    const id = log.id(request)
    log.finish(request, 200)
    return new Response(body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400', 'x-request-id': id } })
  }
  return new Elysia({ name: 'favicon' })
    .get(FAVICON_SVG_PATH, ({ request }) => send(request, FAVICON_SVG, 'image/svg+xml'), { detail: { hide: true } })
    .get(FAVICON_ICO_PATH, ({ request }) => send(request, FAVICON_ICO, 'image/x-icon'), { detail: { hide: true } })
}
