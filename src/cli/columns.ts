/**
 * Rows of text cells as aligned columns, for the commands' tables (`payments report`, `data list`,
 * `providers check`): each column as wide as its widest cell, two spaces between, no trailing blanks.
 */
export function alignedColumns(rows: readonly (readonly string[])[], alignRight: (column: number) => boolean = () => false): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows
    .map((row) =>
      row
        .map((cell, column) => (alignRight(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}
