/**
 * The sample label. An answer resting on generated data says so in two places a buyer cannot miss: a
 * `sample` flag first in `data` (the same place on every China route and wrapper), and a sentence at
 * the end of its summary, in the answer's language.
 */
export const SAMPLE_SENTENCE = {
  en: 'Sample data: generated for demonstration, not real observations.',
  zh: '样本数据：为演示生成，并非真实观测。',
} as const

const say = (text: string, lang: 'en' | 'zh') => `${text}${lang === 'zh' ? '' : ' '}${SAMPLE_SENTENCE[lang]}`

/**
 * `data` with the flag first and, on sample data, the sentence on its summary: a summary string (KOLs,
 * wrappers), `summary.headline` (trends) or `summary.narrative` (sentiment, in its `lang`).
 */
export function labelled<T extends Record<string, unknown>>(data: T, sample: boolean): T & { sample: boolean } {
  if (!sample) return { sample, ...data }
  const lang = data.lang === 'zh' ? 'zh' : 'en'
  const original = data.summary as unknown
  let summary = original
  if (typeof original === 'string') summary = say(original, lang)
  else if (original && typeof original === 'object') {
    const record = original as Record<string, unknown>
    if (typeof record.headline === 'string') summary = { ...record, headline: say(record.headline, 'en') }
    else if (typeof record.narrative === 'string') summary = { ...record, narrative: say(record.narrative, lang) }
  }
  return { sample, ...data, ...(summary === undefined ? {} : { summary }) }
}
