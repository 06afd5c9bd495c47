import { FAVICON_SVG_PATH } from './favicon'

/** Text or attribute value made safe inside HTML. Every value that is not markup we wrote goes through it. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** Escaped text with its Markdown `code` spans (as the catalog's descriptions write them) shown as code. */
export function textHtml(value: string): string {
  return escapeHtml(value).replace(/`([^`]+)`/g, '<code>$1</code>')
}

/**
 * Our pages load nothing from anywhere (styles inline, the icon from this server), and the policy says
 * so to the browser too: a page can never reach another host, even if a value slipped through unescaped.
 */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

export const HTML_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, vary: 'accept' } as const

// System fonts only (no web fonts to fetch); light and dark from the system setting; tables scroll
// sideways on a phone instead of squeezing the prices.
const CSS = `
:root{color-scheme:light dark;--fg:#1c1f23;--muted:#5b6470;--bg:#fff;--panel:#f5f6f8;--line:#dde1e6;--accent:#b91c1c;--link:#0b57d0;--note:#fff7e6;--note-line:#f0c36d}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--muted:#a0a8b3;--bg:#15171a;--panel:#1f2226;--line:#33383e;--accent:#f87171;--link:#8ab4f8;--note:#2b2414;--note-line:#7a5c1c}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif}
main{max-width:64rem;margin:0 auto;padding:1.5rem 1rem 3rem}
header{display:flex;align-items:center;gap:.75rem}
header img{width:2.5rem;height:2.5rem}
h1{font-size:1.6rem;line-height:1.25;margin:0}
h2{font-size:1.2rem;margin:2rem 0 .5rem}
a{color:var(--link)}
p,li{max-width:48rem}
code,pre{font:.9em/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{background:var(--panel);padding:.1em .3em;border-radius:4px;overflow-wrap:anywhere}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.75rem;overflow-x:auto}
pre code{background:none;padding:0;overflow-wrap:normal}
.lead{font-size:1.1rem;color:var(--muted);margin:.5rem 0 0}
.status{display:inline-block;font-weight:600;color:#fff;background:var(--accent);border-radius:4px;padding:.05rem .45rem;font-size:.85rem}
.note{background:var(--note);border:1px solid var(--note-line);border-radius:6px;padding:.6rem .9rem;margin:1.25rem 0}
.links{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;padding:0;list-style:none}
.terms{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
.terms dt{color:var(--muted)}
.terms dd{margin:0;overflow-wrap:anywhere}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{text-align:left;vertical-align:top;padding:.4rem .6rem;border-bottom:1px solid var(--line)}
thead th{background:var(--panel)}
tbody th{padding-top:1rem;font-size:1rem}
.price,.method{white-space:nowrap}
.price{font-variant-numeric:tabular-nums}
td.path{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.muted{color:var(--muted)}
`

/** A whole page: our small stylesheet, the icon, and the body markup (already escaped by the caller). */
export function htmlPage(title: string, body: string, extraCss = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${FAVICON_SVG_PATH}" type="image/svg+xml">
<style>${CSS}${extraCss}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`
}
