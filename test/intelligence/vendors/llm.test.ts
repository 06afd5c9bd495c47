/**
 * The chat-completions summariser against local servers answering as DeepSeek and Qwen on DashScope
 * document (fixtures in this folder, sources in README.md): json_schema refused -> JSON mode with the
 * schema in the prompt, fenced and blank content, throttling, the bounded answer (max_tokens, an answer
 * cut off at it), and token usage recorded as spend with cached input tokens priced apart.
 */
import { describe, expect, test } from 'bun:test'
import type { EvidenceItem } from '../../../src/intelligence/evidence'
import { ChatCompletionsSummariser, SUMMARY_MAX_TOKENS } from '../../../src/intelligence/providers/chat-completions'
import type { ProviderSpend } from '../../../src/core/provider-spend'
import { PROVIDER_LIMITS } from '../../../src/catalog/evidence-rules'
import { failure, fileServers, json } from '../../../support/loopback'
import { signal } from '../../../support/evidence-query'

const fixture = async (name: string) => Bun.file(`${import.meta.dir}/fixtures/${name}.json`).text()

const serve = fileServers()

const item = (id: string): EvidenceItem => ({
  id,
  url: null,
  platform: 'xiaohongshu',
  retrieval: 'native',
  sourceKind: 'note',
  author: 'a',
  authorFollowers: 1000,
  authorCity: null,
  publishedAt: new Date('2026-11-20T00:00:00Z'),
  title: '露营',
  text: '露营装备清单',
  language: 'zh',
  engagement: { likes: 10, comments: 1, shares: 0, views: null },
  provider: 'p',
})
const request = { keyword: '露营', platform: 'all', items: [item('n1'), item('n2')], terms: ['露营装备'] }
/** A fixture answer with the first evidence id the model was sent put where the fixture says $FIRST_ID. */
const answering = (text: string, body: string) =>
  text.replaceAll('$FIRST_ID', JSON.parse(JSON.parse(body).messages[1].content).evidence[0].id)

describe('DeepSeek: json_schema refused, JSON mode instead', () => {
  test('auto: the 400 refusal switches to json_object with the schema and the word JSON in the prompt; the answer is checked and its tokens recorded', async () => {
    const [refused, answer] = [await fixture('deepseek-json-schema-refused'), await fixture('deepseek-chat-completion')]
    const s = serve((_req, _url, body) =>
      JSON.parse(body).response_format.type === 'json_schema'
        ? new Response(refused, { status: 400, headers: { 'content-type': 'application/json' } })
        : json(JSON.parse(answering(answer, body))),
    )
    const llm = new ChatCompletionsSummariser({
      baseUrl: s.url,
      model: 'deepseek-chat',
      timeoutMs: 5000,
      responseFormat: 'auto',
      prices: { inputPerMillionNanoUsd: 280_000_000n, outputPerMillionNanoUsd: 420_000_000n },
    })
    const spend: ProviderSpend[] = []
    const out = await llm.summarise(request, signal(), spend)
    expect(out.themes).toEqual(['露营装备', '精致露营'])
    // The id it made up is dropped; the one it was given stays.
    expect(out.contentAngles[0]!.evidenceIds).toEqual(['n1'])
    const [first, second] = s.requests.map((r) => JSON.parse(r.body))
    // Every request bounds its answer.
    expect([first.max_tokens, second.max_tokens]).toEqual([SUMMARY_MAX_TOKENS, SUMMARY_MAX_TOKENS])
    expect(first.response_format.type).toBe('json_schema')
    expect(second.response_format).toEqual({ type: 'json_object' })
    expect(second.messages[0].content).toMatch(/JSON schema/)
    expect(second.messages[0].content).toContain('"content_angles"')
    // 3,120 input and 412 output tokens at 0.28 and 0.42 USD per million: 1,046.64 µUSD, rounded up to a nano-dollar.
    expect(spend).toEqual([
      { provider: llm.name, role: 'summary', requests: 2, inputTokens: 3120, outputTokens: 412, costNanoUsd: 1_046_640n },
    ])
    expect(llm.responseFormat).toBe('json_object')
    // Remembered: the next call goes straight to JSON mode.
    await llm.summarise(request, signal())
    expect(s.requests.map((r) => JSON.parse(r.body).response_format.type)).toEqual(['json_schema', 'json_object', 'json_object'])
  })

  test('the older refusal (422, plain text) is recognised too; a configured json_schema is never downgraded', async () => {
    const text =
      'Failed to deserialize the JSON body into the target type: response_format: response_format.type `json_schema` is unavailable now at line 1 column 1193'
    const answer = await fixture('deepseek-chat-completion')
    const s = serve((_req, _url, body) =>
      JSON.parse(body).response_format.type === 'json_schema'
        ? new Response(text, { status: 422 })
        : json(JSON.parse(answering(answer, body))),
    )
    expect(
      (await new ChatCompletionsSummariser({ baseUrl: s.url, model: 'deepseek-chat', timeoutMs: 5000 }).summarise(request, signal()))
        .themes,
    ).toHaveLength(2)
    const strict = new ChatCompletionsSummariser({ baseUrl: s.url, model: 'deepseek-chat', timeoutMs: 5000, responseFormat: 'json_schema' })
    const e = await failure(strict.summarise(request, signal()))
    expect(e.message).toContain('HTTP 422')
  })

  test('blank content (DeepSeek’s spaces when its output is not JSON) is bad_response; its request is still counted', async () => {
    const blank = await fixture('deepseek-blank-content')
    const s = serve(() => json(JSON.parse(blank)))
    const spend: ProviderSpend[] = []
    const e = await failure(
      new ChatCompletionsSummariser({ baseUrl: s.url, model: 'deepseek-chat', timeoutMs: 5000, responseFormat: 'json_object' }).summarise(
        request,
        signal(),
        spend,
      ),
    )
    expect([e.kind, e.message.includes('blank content')]).toEqual(['bad_response', true])
    expect(spend).toMatchObject([{ requests: 1, inputTokens: 3120, outputTokens: 3, costNanoUsd: null }])
  })
})

test('content nested past the JSON depth limit (a 1 MiB answer of brackets) is bad_response naming it, not handed to JSON.parse', async () => {
  const answer = JSON.parse(await fixture('deepseek-chat-completion'))
  answer.choices[0].message.content = `${'['.repeat(400_000)}${']'.repeat(400_000)}`
  const s = serve(() => json(answer))
  const e = await failure(
    new ChatCompletionsSummariser({ baseUrl: s.url, model: 'deepseek-chat', timeoutMs: 5000, responseFormat: 'json_object' }).summarise(
      request,
      signal(),
    ),
  )
  expect([e.kind, e.message.endsWith(`: answered JSON nested deeper than ${PROVIDER_LIMITS.jsonDepth} levels`)]).toEqual([
    'bad_response',
    true,
  ])
})

describe('the answer’s bound and its price', () => {
  const summariser = (baseUrl: string, cachedInput?: string) =>
    new ChatCompletionsSummariser({
      baseUrl,
      model: 'deepseek-chat',
      timeoutMs: 5000,
      responseFormat: 'json_object',
      prices: {
        inputPerMillionNanoUsd: 280_000_000n,
        outputPerMillionNanoUsd: 420_000_000n,
        ...(cachedInput ? { cachedInputPerMillionNanoUsd: BigInt(cachedInput) } : {}),
      },
    })

  test('an answer cut off at max_tokens (finish_reason "length") is a failure that says so, not truncated JSON parsed; its tokens are still spent', async () => {
    const cut = await fixture('deepseek-length-truncated')
    const s = serve(() => json(JSON.parse(cut)))
    const spend: ProviderSpend[] = []
    const e = await failure(summariser(s.url).summarise(request, signal(), spend))
    expect(e.kind).toBe('bad_response')
    expect(e.message).toContain('cut off at max_tokens')
    expect(e.message).not.toContain('not JSON')
    expect(JSON.parse(s.requests[0]!.body).max_tokens).toBe(SUMMARY_MAX_TOKENS)
    expect(spend).toMatchObject([{ requests: 1, inputTokens: 3120, outputTokens: 2000 }])
  })

  test('DeepSeek’s cache hits (prompt_cache_hit_tokens) cost the configured cached-input price; unconfigured, the full input price', async () => {
    const hit = await fixture('deepseek-chat-completion-cache-hit')
    const s = serve((_req, _url, body) => json(JSON.parse(answering(hit, body))))
    const [cheap, full]: ProviderSpend[][] = [[], []]
    await summariser(s.url, '28000000').summarise(request, signal(), cheap)
    await summariser(s.url).summarise(request, signal(), full)
    // 176 missed at 0.28, 2,944 hit at 0.028, 412 out at 0.42 USD per million: 304.752 µUSD.
    expect(cheap).toMatchObject([{ inputTokens: 3120, outputTokens: 412, costNanoUsd: 304_752n }])
    // No cached price: every input token at 0.28, as before (an upper bound, no discount assumed).
    expect(full).toMatchObject([{ inputTokens: 3120, outputTokens: 412, costNanoUsd: 1_046_640n }])
  })

  test('DashScope’s cached tokens (prompt_tokens_details.cached_tokens, part of prompt_tokens) cost the cached-input price', async () => {
    const cached = await fixture('dashscope-chat-completion-cached')
    const s = serve((_req, _url, body) => json(JSON.parse(answering(cached, body))))
    const spend: ProviderSpend[] = []
    await new ChatCompletionsSummariser({
      baseUrl: s.url,
      model: 'qwen-plus',
      timeoutMs: 5000,
      prices: { inputPerMillionNanoUsd: 400_000_000n, cachedInputPerMillionNanoUsd: 80_000_000n, outputPerMillionNanoUsd: 1_200_000_000n },
    }).summarise(request, signal(), spend)
    // 971 uncached at 0.4, 2,048 cached at 0.08, 96 out at 1.2 USD per million.
    expect(spend).toMatchObject([{ inputTokens: 3019, outputTokens: 96, costNanoUsd: 667_440n }])
  })

  test('a model that refuses max_tokens for max_completion_tokens (OpenAI’s 400) is asked again with it, and remembered', async () => {
    // OpenAI's answer, verbatim as captured in public issue threads (e.g. griptape-ai/ComfyUI-Griptape#312).
    const refusal = {
      error: {
        message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        type: 'invalid_request_error',
        param: 'max_tokens',
        code: 'unsupported_parameter',
      },
    }
    const answer = await fixture('deepseek-chat-completion')
    const s = serve((_req, _url, body) =>
      'max_tokens' in JSON.parse(body) ? json(refusal, 400) : json(JSON.parse(answering(answer, body))),
    )
    const llm = new ChatCompletionsSummariser({ baseUrl: s.url, model: 'gpt-5.1', timeoutMs: 5000 })
    expect((await llm.summarise(request, signal())).themes).toHaveLength(2)
    await llm.summarise(request, signal())
    const sent = s.requests.map((r) => JSON.parse(r.body))
    expect(sent.map((b) => [b.max_tokens, b.max_completion_tokens])).toEqual([
      [SUMMARY_MAX_TOKENS, undefined],
      [undefined, SUMMARY_MAX_TOKENS],
      [undefined, SUMMARY_MAX_TOKENS],
    ])
    // Not taken for a refusal of json_schema.
    expect(llm.responseFormat).toBe('json_schema')
  })
})

describe('Qwen on DashScope (compatible mode)', () => {
  test('a refusal of json_schema in DashScope’s envelope falls back; a fenced ```json answer is read', async () => {
    const [refused, answer] = [await fixture('dashscope-json-schema-refused'), await fixture('dashscope-chat-completion')]
    const s = serve((_req, url, body) => {
      expect(url.pathname).toBe('/compatible-mode/v1/chat/completions')
      return JSON.parse(body).response_format.type === 'json_schema'
        ? new Response(refused, { status: 400, headers: { 'content-type': 'application/json' } })
        : json(JSON.parse(answering(answer, body)))
    })
    const out = await new ChatCompletionsSummariser({
      baseUrl: `${s.url}/compatible-mode/v1`,
      model: 'qwen-turbo',
      timeoutMs: 5000,
    }).summarise(request, signal())
    expect(out).toEqual({
      themes: ['露营装备'],
      contentAngles: [{ angle: '营地清单', rationale: '收藏最多的是清单类笔记。', evidenceIds: ['n1'] }],
    })
  })

  test('throttling (429) is rate_limited and is not taken for a refusal of json_schema', async () => {
    const throttled = await fixture('dashscope-throttled')
    const s = serve(() => new Response(throttled, { status: 429, headers: { 'content-type': 'application/json' } }))
    const llm = new ChatCompletionsSummariser({ baseUrl: s.url, model: 'qwen-plus', timeoutMs: 5000 })
    expect((await failure(llm.summarise(request, signal()))).kind).toBe('rate_limited')
    expect(s.requests).toHaveLength(1)
    expect(llm.responseFormat).toBe('json_schema')
  })
})
