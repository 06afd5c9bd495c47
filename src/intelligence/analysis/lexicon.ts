/**
 * Sentiment lexicon and narrative-frame cues, Chinese and English. Data only: the scoring is in
 * sentiment.ts. Weights: ±1 ordinary, ±2 strong. Chinese entries include internet usage (种草, 踩雷,
 * 智商税, 绝绝子); segmentation may split such words, so scoring joins adjacent tokens to find them.
 */

export const ZH_SENTIMENT: Readonly<Record<string, number>> = {
  // positive
  好: 1, 很好: 1, 不错: 1, 挺好: 1, 喜欢: 1, 爱: 1, 爱了: 2, 推荐: 1, 强烈推荐: 2, 值得: 1, 真的值: 1, 很值: 1, 太值了: 2, 满意: 1, 好用: 1,
  好看: 1, 好吃: 1, 好喝: 1, 舒服: 1, 舒适: 1, 方便: 1, 实惠: 1, 划算: 1, 便宜: 1, 惊艳: 2, 惊喜: 2, 完美: 2, 优秀: 1,
  赞: 1, 超赞: 2, 棒: 1, 超棒: 2, 贴心: 1, 专业: 1, 靠谱: 1, 放心: 1, 安心: 1, 治愈: 1, 出片: 1, 宝藏: 2, 种草: 1,
  回购: 2, 必买: 2, 必去: 2, 绝绝子: 2, yyds: 2, 神器: 1, 效果明显: 2, 效果很明显: 2, 扎实: 1, 温柔: 1, 清爽: 1, 细腻: 1, 保湿: 1,
  真心推荐: 2, 值得推荐: 2, 力荐: 2, 墙裂推荐: 2,
  性价比高: 2, 性价比很高: 2, 物超所值: 2, 体验好: 1, 热情: 1, 干净: 1, 安全: 1, 正品: 1, 开心: 1, 快乐: 1, 期待: 1,
  氛围感: 1, 满满: 1, 美: 1, 漂亮: 1, 好评: 2, 五星: 2, 稳: 1,
  // negative
  差: -1, 很差: -2, 太差: -2, 不好: -1, 失望: -2, 踩雷: -2, 避雷: -2, 翻车: -2, 拔草: -1, 坑: -2, 被坑: -2, 后悔: -2,
  垃圾: -2, 智商税: -2, 劝退: -2, 过敏: -2, 假货: -2, 贵: -1, 太贵: -2, 昂贵: -1, 难用: -2, 难吃: -2, 难看: -1,
  不推荐: -2, 不值: -2, 不值得: -2, 不满意: -2, 一般: -1, 平平: -1, 敷衍: -1, 糟糕: -2, 烂: -2, 破: -1, 坏: -1, 坏了: -1,
  脏: -1, 吵: -1, 拥挤: -1, 人多: -1, 人太多: -1, 排队: -1, 闷热: -1, 扰民: -1, 割韭菜: -2, 虚假: -2, 骗: -2,
  投诉: -2, 退货: -1, 差评: -2, 起球: -1, 掉色: -1, 闷痘: -1, 烂脸: -2, 刺激: -1, 隐患: -1, 安全隐患: -2, 担心: -1, 态度差: -2,
  性价比低: -2, 性价比很低: -2, 不舒服: -1, 麻烦: -1, 失误: -1, 无语: -1, 崩溃: -2, 焦虑: -1,
  // complaint phrasing: verdicts, refusals to buy again, ignored service, waiting
  不行: -1, 不太行: -1, 再也不买: -2, 不会再买: -2, 不理人: -2, 没人理: -2, 等了: -1,
}

export const EN_SENTIMENT: Readonly<Record<string, number>> = {
  // positive
  good: 1, great: 1, excellent: 2, amazing: 2, awesome: 2, love: 2, loved: 2, lovely: 1, like: 1, liked: 1, recommend: 1,
  'highly recommend': 2, worth: 1, 'worth it': 2, 'worth every penny': 2, 'bought it again': 2, 'buy it again': 2, value: 1, 'great value': 2, nice: 1, perfect: 2,
  beautiful: 1, comfortable: 1, convenient: 1, affordable: 1, cheap: 1, friendly: 1, helpful: 1, reliable: 1, fun: 1,
  enjoy: 1, enjoyed: 1, happy: 1, impressive: 1, photogenic: 1, stunning: 2, fantastic: 2, best: 2, clean: 1, safe: 1,
  recommended: 1, 'must buy': 2, 'must try': 2, favourite: 1, favorite: 1, well: 1,
  // negative
  bad: -1, poor: -1, terrible: -2, awful: -2, horrible: -2, disappointed: -2, disappointing: -2, hate: -2, worst: -2,
  expensive: -1, overpriced: -2, 'rip-off': -2, 'rip off': -2, scam: -2, fake: -2, fakes: -2, crowded: -1, dirty: -1,
  noisy: -1, broke: -1, broken: -1, rash: -2, allergic: -2, 'waste of money': -2, regret: -2, rude: -2, slow: -1,
  queue: -1, queued: -1, complaint: -1, complaints: -1, worried: -1, unsafe: -2, mediocre: -1, meh: -1, problem: -1,
  problems: -1, issue: -1, issues: -1, avoid: -2, 'never again': -2,
}

/**
 * Praise words that also head noun compounds: as a verb they praise (推荐！, 我推荐这款, 推荐给大家, 非常推荐),
 * glued to a content word they are a label (豆子推荐 "bean recommendations", 好物推荐清单, 推荐路线 "suggested
 * route") and do not count. The scorer counts them only next to function, degree, negation or sentiment
 * words, or alone in their clause; evaluative compounds (强烈推荐, 真心推荐, 值得推荐) are entries of their own.
 */
export const HEADING_WORDS = new Set(['推荐', '种草'])

/** Words that flip the next sentiment word (within NEGATION_WINDOW tokens of the same clause). */
export const NEGATORS = new Set(['不', '没', '没有', '别', '无', '未', '不是', '不太', '并不', '从不', '不会', '不够', 'not', 'no', 'never', 'without', 'hardly'])
export const NEGATION_WINDOW = 3

/** Degree words before a sentiment word: multiply its weight. */
export const INTENSIFIERS: Readonly<Record<string, number>> = {
  很: 1.5, 非常: 1.8, 太: 1.5, 超: 1.8, 超级: 1.8, 特别: 1.6, 真: 1.3, 真的: 1.3, 挺: 1.2, 蛮: 1.2, 极: 1.8, 巨: 1.8, 最: 1.8, 十分: 1.6,
  有点: 0.6, 有些: 0.6, 稍微: 0.6, 略: 0.6, 不太: 0.8,
  very: 1.5, really: 1.4, so: 1.4, super: 1.8, extremely: 1.8, absolutely: 1.6, totally: 1.5, too: 1.4, way: 1.3, quite: 1.2,
  bit: 0.6, slightly: 0.6, somewhat: 0.7, kinda: 0.7,
}

/** A clause opened by one of these outweighs the clause before it ("虽然……，但是……"). */
export const CONTRAST_AFTER = new Set(['但', '但是', '不过', '可是', '然而', '只是', 'but', 'however', 'though', 'yet'])
/** A clause opened by one of these concedes: it weighs less. */
export const CONCESSIVE = new Set(['虽然', '尽管', '虽说', 'although', 'while'])

/** Modifier characters glued to a word by the segmenter (很好, 太贵, 不好); split off before lookup. */
export const ZH_MODIFIER_PREFIXES = ['非常', '特别', '超级', '很', '太', '超', '真', '挺', '蛮', '最', '不', '没', '巨']
/** Sentence particles glued to a word (贵了, 好的, 棒啊); dropped before lookup. */
export const ZH_PARTICLES = ['了', '的', '啊', '呀', '啦', '吧', '哦', '呢', '嘛', '哈']

export const ZH_STOPWORDS = new Set([
  '的', '了', '是', '我', '你', '他', '她', '它', '我们', '你们', '他们', '也', '都', '就', '和', '与', '及', '在', '有', '这', '那',
  '一个', '一下', '一些', '一份', '还', '吗', '呢', '吧', '啊', '呀', '哦', '又', '而', '但', '但是', '虽然', '因为', '所以', '如果',
  '就是', '真的', '感觉', '自己', '大家', '可以', '什么', '怎么', '这个', '那个', '今天', '周末', '第一次', '终于', '来', '聊聊',
  '分享', '记录', '整理', '上', '中', '为', '对', '从', '到', '让', '被', '把', '给', '跟', '很', '太', '超', '多', '少', '次',
  '据', '相关', '内容', '讨论', '观察', '受', '关注', '成为', '附上', '做个', '对比', '怎么看', '实测', '被问', '很多', '一共',
  '大概', '大约', '左右', '已经', '没有', '不是', '还是', '或者', '以及', '其实', '时候', '之后', '之前', '一起', '比较',
])

export const EN_STOPWORDS = new Set([
  'the', 'a', 'an', 'and', 'or', 'but', 'of', 'to', 'in', 'on', 'for', 'with', 'at', 'by', 'from', 'as', 'is', 'are', 'was',
  'were', 'be', 'been', 'it', 'its', 'this', 'that', 'these', 'those', 'i', 'me', 'my', 'we', 'our', 'you', 'your', 'they',
  'their', 'he', 'she', 'his', 'her', 'them', 'there', 'here', 'what', 'which', 'who', 'how', 'about', 'into', 'after',
  'before', 'than', 'then', 'so', 'if', 'just', 'also', 'too', 'very', 'really', 'more', 'most', 'some', 'any', 'all',
  'not', 'no', 'can', 'will', 'would', 'should', 'could', 'have', 'has', 'had', 'do', 'does', 'did', 'get', 'got', 'one',
  'two', 'first', 'time', 'trying', 'tried', 'finally', 'weekend', 'notes', 'note', 'honest', 'take', 'out', 'say', 'people',
  'compiled', 'posts', 'post', 'chinese', 'social', 'platforms', 'trend', 'report', 'focus', 'below', 'full', 'quick',
  'sharing', 'think', 'guide', 'comparison', 'way', 'far', 'around', 'about', 'less', 'lots', 'start',
])

/** Narrative frames: what a conversation is about, whatever its tone. Cues are matched in lower-cased text. */
export interface FrameDef {
  label: { en: string; zh: string }
  zh: readonly string[]
  en: readonly string[]
}

export const BASE_FRAMES: Readonly<Record<string, FrameDef>> = {
  price_value: {
    label: { en: 'Price and value', zh: '价格与性价比' },
    // No single characters: 值 is in 颜值 (looks), 元 in 元素, 贵 in 贵州.
    zh: ['价格', '价位', '性价比', '划算', '便宜', '太贵', '很贵', '贵了', '智商税', '实惠', '优惠', '折扣', '块钱', '多块', '值得', '真的值'],
    en: ['price', 'prices', 'value', 'expensive', 'cheap', 'overpriced', 'rip-off', 'penny', 'cost', 'budget', 'discount', 'yuan'],
  },
  quality_efficacy: {
    label: { en: 'Quality and efficacy', zh: '质量与效果' },
    zh: ['质量', '效果', '做工', '面料', '坏了', '耐用', '成分', '用了', '失望', '起球'],
    en: ['quality', 'works', 'effective', 'broke', 'durable', 'fabric', 'ingredient', 'pilled', 'disappointed'],
  },
  experience_service: {
    label: { en: 'Experience and service', zh: '体验与服务' },
    zh: ['体验', '服务', '态度', '排队', '人太多', '人多', '拥挤', '过程', '环境', '舒服'],
    en: ['experience', 'service', 'staff', 'queue', 'queued', 'crowded', 'atmosphere', 'friendly'],
  },
  safety_trust: {
    label: { en: 'Safety and trust', zh: '安全与信任' },
    zh: ['安全', '过敏', '假货', '正品', '隐患', '投诉', '虚假', '担心'],
    en: ['safe', 'safety', 'rash', 'allergic', 'fake', 'fakes', 'genuine', 'scam', 'worried'],
  },
  aesthetics_lifestyle: {
    label: { en: 'Aesthetics and lifestyle', zh: '颜值与生活方式' },
    zh: ['出片', '拍照', '氛围', '颜值', '好看', '治愈', '打卡', '精致'],
    en: ['photogenic', 'photo', 'photos', 'vibe', 'aesthetic', 'atmosphere', 'instagrammable', 'lovely'],
  },
}

/** Frames that only matter in some industries; `aliases` are the industry names (and zh) that select them. */
export const INDUSTRY_FRAMES: Readonly<Record<string, { aliases: readonly string[]; frames: Readonly<Record<string, FrameDef>> }>> = {
  travel: {
    aliases: ['travel', 'tourism', 'hospitality', '旅游', '旅行', '出行', '酒店'],
    frames: {
      access_logistics: {
        label: { en: 'Access and logistics', zh: '出行与签证' },
        zh: ['签证', '机票', '航班', '交通', '地铁', '换乘', '住宿', '酒店'],
        en: ['visa', 'flight', 'flights', 'metro', 'transfer', 'transfers', 'hotel', 'stay'],
      },
    },
  },
  outdoor: {
    aliases: ['outdoor', 'outdoors', 'sports', 'sport', '户外', '运动'],
    frames: {
      venue_access: {
        label: { en: 'Venues and access', zh: '场地与准入' },
        zh: ['场地', '营地', '草坪', '预约', '扰民', '车程', '约场'],
        en: ['campsite', 'site', 'pitch', 'lawn', 'book', 'noise'],
      },
    },
  },
  fashion: {
    aliases: ['fashion', 'apparel', 'retail', '服装', '时尚', '零售'],
    frames: {
      sustainability: {
        label: { en: 'Sustainability', zh: '可持续与环保' },
        zh: ['环保', '可持续', '浪费', '清仓', '一次性'],
        en: ['sustainable', 'sustainability', 'waste', 'clearance', 'landfill'],
      },
    },
  },
  beauty: {
    aliases: ['beauty', 'skincare', 'cosmetics', '美妆', '护肤', '化妆品'],
    frames: {
      skin_fit: {
        label: { en: 'Skin fit', zh: '肤质适配' },
        zh: ['敏感肌', '混油', '干皮', '油皮', '肤质', '闷痘', '烂脸'],
        en: ['sensitive skin', 'combination skin', 'oily', 'dry skin', 'breakout'],
      },
    },
  },
}
