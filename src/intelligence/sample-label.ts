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
  const s = data.summary as unknown
  let summary = s
  if (typeof s === 'string') summary = say(s, lang)
  else if (s && typeof s === 'object') {
    const o = s as Record<string, unknown>
    if (typeof o.headline === 'string') summary = { ...o, headline: say(o.headline, 'en') }
    else if (typeof o.narrative === 'string') summary = { ...o, narrative: say(o.narrative, lang) }
  }
  return { sample, ...data, ...(summary === undefined ? {} : { summary }) }
}
