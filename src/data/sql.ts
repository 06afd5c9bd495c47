/** A string as a SQL literal, for the file paths and names DuckDB cannot take as bound parameters. */
export const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`
