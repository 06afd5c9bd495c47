/**
 * The face of formats/: the table formats a paid answer can be sold in.
 */
export { csvRecord } from './csv'
export { TABLE_ANSWER_HEADERS, tableAnswer } from './table-answer'
