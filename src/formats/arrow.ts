import type { TableColumn } from '../catalog/table'

type Arrow = typeof import('apache-arrow')

/** apache-arrow is large: loaded on the first Arrow answer, not at start-up. */
let arrow: Promise<Arrow> | undefined
const loadArrow = () => (arrow ??= import('apache-arrow'))

function arrowType(A: Arrow, kind: TableColumn['kind']) {
  switch (kind) {
    case 'integer':
      return new A.Int64()
    case 'double':
      return new A.Float64()
    case 'boolean':
      return new A.Bool()
    case 'month':
      return new A.DateDay()
    case 'text_list':
      return new A.List(new A.Field('item', new A.Utf8(), false))
    case 'text':
      return new A.Utf8()
  }
}

/** A value as the column's Arrow builder takes it: 64-bit integers as bigint, a month as its first day (UTC). */
function arrowValue(kind: TableColumn['kind'], v: unknown): unknown {
  if (v === null || v === undefined) return null
  if (kind === 'integer') return BigInt(v as number)
  if (kind === 'month') return new Date(`${v as string}-01T00:00:00Z`)
  return v
}

/**
 * A table answer as an Arrow IPC stream: one record batch, columns typed from the catalog (integers
 * int64, decimals float64, months date32 on the first day of the month, platform lists list<utf8>).
 * `metadata` (request id, dataset version, ...) goes into the schema's custom metadata, so a saved file keeps it.
 */
export async function tableArrow(columns: readonly TableColumn[], rows: readonly Record<string, unknown>[], metadata: Record<string, string>): Promise<Uint8Array> {
  const A = await loadArrow()
  const fields = columns.map((c) => new A.Field(c.name, arrowType(A, c.kind), c.nullable, c.kind === 'month' ? new Map([['unit', 'month']]) : undefined))
  const vectors = columns.map((c, i) => A.vectorFromArray(rows.map((r) => arrowValue(c.kind, r[c.name])), fields[i]!.type))
  const schema = new A.Schema(fields, new Map(Object.entries(metadata)))
  const data = A.makeData({ type: new A.Struct(fields), length: rows.length, nullCount: 0, children: vectors.map((v) => v.data[0]!) })
  return A.tableToIPC(new A.Table([new A.RecordBatch(schema, data)]), 'stream')
}
