import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Server, Subprocess } from 'bun'
import { freePort } from './ports'

/**
 * The real searx (Debian's `searx` package, 1.1.0: the upstream code SearXNG grew from, with the same
 * `/search?format=json` API) started by the tests like nginx and PostgreSQL, with engines of its own
 * (`opensemantic`: it reads a Solr-shaped `{"response":{"docs":[…]}}`, dates from `file_modified_dt`)
 * pointed at a loopback corpus of ours. Nothing reaches outside the machine.
 *
 * Debian ships no default settings beside the code (`use_default_settings` has nothing to merge with), so
 * the settings are written whole: YAML reads JSON.
 */

/** Where Debian puts searx, and the interpreter it is installed for (not a pyenv shim's). */
export const SEARX_PACKAGE = '/usr/lib/python3/dist-packages/searx/webapp.py'
const PYTHON = '/usr/bin/python3'

export const searxInstalled = () => existsSync(SEARX_PACKAGE) && existsSync(PYTHON)

/** One page the corpus holds, as Open Semantic Search (Solr) returns it. */
export interface CorpusDoc {
  /** The page's URL (Solr's `id`). */
  url: string
  title: string
  content?: string
  /** ISO 8601 (opensemantic requires one: an undated engine is a `json_engine`, see SearxEngine.undated). */
  modified: string
}

export interface SearxEngine {
  name: string
  docs: readonly CorpusDoc[]
  /** Declares time-range support (opensemantic has none: with `time_range` set, searx skips it). The corpus ignores the range either way. */
  timeRangeSupport?: boolean
  /** Results an engine answers for one query at most (default 25, ranked by words matched). */
  pageSize?: number
  /** Results without dates, as many web engines give: searx's `json_engine` over the same corpus (it reads no date). */
  undated?: boolean
  /**
   * An undated engine that declares paging but has no `{pageno}` in its URL: searx asks it for every page
   * (`search/processors/abstract.py` skips only engines without paging) and `json_engine.request` sends the
   * same URL each time, so it answers its first page again for pages 2, 3, ...
   */
  repeatsPage?: boolean
}

export interface StartedSearx {
  url: string
  /** Every query the engines received, by engine. */
  queries: Map<string, string[]>
  stop(): Promise<void>
}

/**
 * The docs of an engine that match a query, as a web engine answers: any of its words, ranked by how many
 * (then in a fixed order unrelated to dates: a hash of the URL), at most `pageSize` (engines answer a page,
 * not everything).
 */
function matching(engine: SearxEngine, query: string): CorpusDoc[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0)
  const scored = engine.docs
    .map((doc) => {
      const text = `${doc.title} ${doc.content ?? ''}`.toLowerCase()
      return { doc, order: Number(Bun.hash.crc32(doc.url)), score: words.filter((w) => text.includes(w)).length }
    })
    .filter((d) => d.score > 0)
  scored.sort((a, b) => b.score - a.score || a.order - b.order)
  return scored.slice(0, engine.pageSize ?? 25).map((d) => d.doc)
}

function startCorpus(engines: readonly SearxEngine[], port: number, queries: Map<string, string[]>): Server<undefined> {
  const byName = new Map(engines.map((e) => [e.name, e]))
  return Bun.serve({
    port,
    hostname: '127.0.0.1',
    fetch(request) {
      const url = new URL(request.url)
      const [, kind, name] = url.pathname.split('/') // /solr/<engine>/query or /json/<engine>
      const engine = byName.get(decodeURIComponent(name ?? ''))
      if (!engine) return new Response('no such core', { status: 404 })
      const query = url.searchParams.get('q') ?? ''
      queries.get(engine.name)!.push(query)
      if (kind === 'json')
        return Response.json({ results: matching(engine, query).map((d) => ({ url: d.url, title: d.title, content: d.content ?? '' })) })
      const docs = matching(engine, query).map((doc) => ({
        id: doc.url,
        title_txt_txt_en: doc.title,
        ...(doc.content ? { content_txt: [doc.content] } : {}),
        file_modified_dt: doc.modified,
      }))
      return Response.json({ responseHeader: { status: 0 }, response: { numFound: docs.length, start: 0, docs } })
    },
  })
}

/** The whole settings file searx 1.1.0 reads (its example's sections, one engine per corpus). */
function settings(port: number, corpusPort: number, engines: readonly SearxEngine[]) {
  return {
    general: { debug: false, instance_name: 'searx-test', contact_url: false, enable_stats: false },
    brand: { git_url: '', git_branch: '', issue_url: '', docs_url: '', public_instances: '', wiki_url: '', twitter_url: '' },
    search: { safe_search: 0, autocomplete: '', default_lang: '', ban_time_on_fail: 0, max_ban_time_on_fail: 0, formats: ['html', 'json'] },
    server: {
      port,
      bind_address: '127.0.0.1',
      secret_key: crypto.randomUUID(),
      base_url: false,
      image_proxy: false,
      http_protocol_version: '1.0',
      method: 'GET',
      default_http_headers: {},
    },
    ui: {
      static_path: '/usr/share/python3-searx/static',
      templates_path: '/usr/share/python3-searx/templates',
      default_theme: 'oscar',
      default_locale: '',
      theme_args: { oscar_style: 'logicodev' },
    },
    outgoing: { request_timeout: 5.0, useragent_suffix: '', pool_connections: 10, pool_maxsize: 10 },
    checker: { off_when_debug: true },
    engines: engines.map((engine, index) => ({
      name: engine.name,
      shortcut: `e${index}`,
      ...(engine.undated
        ? {
            engine: 'json_engine',
            search_url: `http://127.0.0.1:${corpusPort}/json/${encodeURIComponent(engine.name)}?q={query}`,
            results_query: 'results',
            url_query: 'url',
            title_query: 'title',
            content_query: 'content',
            ...(engine.repeatsPage ? { paging: true } : {}),
          }
        : { engine: 'opensemantic', base_url: `http://127.0.0.1:${corpusPort}/solr/${encodeURIComponent(engine.name)}/` }),
      // searx refuses http:// engine URLs without it ("No connection adapters").
      enable_http: true,
      categories: 'general',
      timeout: 5.0,
      disabled: false,
      ...(engine.timeRangeSupport ? { time_range_support: true } : {}),
    })),
    locales: { en: 'English', zh: '中文 (Chinese)' },
    doi_resolvers: { 'doi.org': 'https://doi.org/' },
    default_doi_resolver: 'doi.org',
  }
}

/** Starts searx with `engines` and waits until its JSON search answers. */
export async function startSearx(engines: readonly SearxEngine[]): Promise<StartedSearx> {
  const [port, corpusPort] = [await freePort(), await freePort()]
  const queries = new Map(engines.map((e) => [e.name, [] as string[]]))
  const corpus = startCorpus(engines, corpusPort, queries)
  const folder = mkdtempSync(join(tmpdir(), 'searx-'))
  const settingsPath = join(folder, 'settings.yml')
  writeFileSync(settingsPath, JSON.stringify(settings(port, corpusPort, engines), null, 1))
  let out = ''
  const proc: Subprocess = Bun.spawn([PYTHON, '-m', 'searx.webapp'], {
    cwd: folder,
    env: { ...process.env, SEARX_SETTINGS_PATH: settingsPath, PYTHONDONTWRITEBYTECODE: '1' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  for (const stream of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[])
    void (async () => {
      for await (const chunk of stream) out += new TextDecoder().decode(chunk)
    })()
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    proc.kill()
    await proc.exited
    await corpus.stop(true)
    rmSync(folder, { recursive: true, force: true })
  }
  const deadline = Date.now() + 30_000
  for (;;) {
    if (proc.exitCode !== null) {
      await stop()
      throw new Error(`searx exited with ${proc.exitCode}:\n${out}`)
    }
    const answered = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
    if (answered) break
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`searx did not answer in 30 s:\n${out}`)
    }
    await Bun.sleep(100)
  }
  return { url, queries, stop }
}
