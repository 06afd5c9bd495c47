import { type AnswerFormat, columnsOf, MEDIA_TYPES, type RouteSpec } from '../catalog'
import type { SuccessEnvelope } from '../core'
import { tableArrow } from './arrow'
import { tableCsv } from './csv'

interface Quality {
  sample: boolean
  notice: string
  dataset_version: string
  source_period: { from: string; to: string }
}

/** Header values are ASCII: other characters are percent-encoded (UTF-8). */
const headerSafe = (v: string) => v.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c))

/** JSON with every non-ASCII character escaped, so it fits a header and parses back to the same value. */
const asciiJson = (v: unknown) =>
  JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/**
 * What the envelope says around the table, for a CSV or Arrow answer: its request id, price and
 * artifact, the data-quality of every dataset behind it, and the answer's other scalar fields
 * (`week_start`, `category`, `country`, ...) as context.
 */
function describe(route: RouteSpec, envelope: SuccessEnvelope) {
  const data = envelope.data as Record<string, unknown>
  const quality = ([] as Quality[]).concat((data.data_quality as Quality | Quality[] | undefined) ?? [])
  const context = Object.fromEntries(
    Object.entries(data).filter(([k, v]) => k !== route.table!.field && (v === null || typeof v !== 'object')),
  )
  return {
    request_id: envelope.meta.request_id,
    generated_at: envelope.meta.generated_at,
    artifact_path: envelope.meta.artifact_path ?? '',
    amount_usd: envelope.pricing.amount_usd,
    dataset_version: quality.map((q) => q.dataset_version).join(','),
    source_period: quality.map((q) => `${q.source_period.from}/${q.source_period.to}`).join(','),
    sample: String(quality.some((q) => q.sample)),
    notice: [...new Set(quality.map((q) => q.notice))].join(' '),
    context,
    ...(envelope.meta.cache_status ? { cache_status: envelope.meta.cache_status } : {}),
  }
}

/** What the JSON envelope says around the table, as the headers of a CSV or Arrow answer (documented in OpenAPI and llms.txt from here). */
export const TABLE_ANSWER_HEADERS = {
  'x-answer-request-id': 'the paid request (`meta.request_id`); the same on a retry and on the artifact',
  'x-generated-at': 'when the answer was made (`meta.generated_at`)',
  'x-artifact-path': 'GET it again, free, for 24 h (`meta.artifact_path`)',
  'x-cache-status': '`hit` or `miss` (`meta.cache_status`)',
  'x-amount-usd': 'the price paid (`pricing.amount_usd`)',
  'x-dataset-version': '`data_quality.dataset_version`; several comma-separated',
  'x-source-period': '`data_quality.source_period` as `from/to`; several comma-separated',
  'x-sample-data': '`true` when the figures are generated sample data',
  'x-data-notice': 'the data-quality caveat (non-ASCII characters percent-encoded)',
  'x-answer-context': "the answer's other plain fields (e.g. `week_start`, `category`), as ASCII JSON",
} as const

const EXTENSION: Record<Exclude<AnswerFormat, 'json'>, string> = { csv: 'csv', arrow: 'arrows' }

/**
 * A paid answer of a table route in CSV or Arrow: the table alone as the body, and what the JSON
 * envelope says around it as headers (and, for Arrow, as the schema's metadata). The same bytes and
 * headers are stored as the answer's artifact.
 */
export async function tableAnswer(
  route: RouteSpec,
  format: Exclude<AnswerFormat, 'json'>,
  envelope: SuccessEnvelope,
): Promise<{ body: string | Uint8Array; headers: Record<string, string> }> {
  const columns = columnsOf(route)
  // The cached answer's own array: a cached table is written once per format (see csv.ts, arrow.ts).
  const rows = (envelope.data as Record<string, unknown>)[route.table!.field] as unknown[]
  const description = describe(route, envelope)
  const described: Record<Exclude<keyof typeof TABLE_ANSWER_HEADERS, 'x-cache-status'>, string> = {
    'x-answer-request-id': description.request_id,
    'x-generated-at': description.generated_at,
    'x-artifact-path': description.artifact_path,
    'x-amount-usd': description.amount_usd,
    'x-dataset-version': description.dataset_version,
    'x-source-period': description.source_period,
    'x-sample-data': description.sample,
    'x-data-notice': headerSafe(description.notice),
    'x-answer-context': asciiJson(description.context),
  }
  const headers: Record<string, string> = {
    'content-type': format === 'csv' ? `${MEDIA_TYPES.csv}; charset=utf-8; header=present` : MEDIA_TYPES.arrow,
    'content-disposition': `inline; filename="${route.id.replaceAll('.', '-').replaceAll('_', '-')}.${EXTENSION[format]}"`,
    ...described,
    ...(description.cache_status ? { 'x-cache-status': description.cache_status } : {}),
  }
  if (format === 'csv') return { body: tableCsv(columns, rows), headers }
  const metadata = { route: route.id, ...description, context: JSON.stringify(description.context) }
  return { body: await tableArrow(columns, rows, metadata as Record<string, string>), headers }
}
