/**
 * Words the sample evidence corpus is written with: per category, the aspects people write about
 * (they become the themes of an answer), the neutral details of a post and the products a brand post
 * names (never containing a topic's name: a brand's formula post is not a post on the formula topic); tone clauses per narrative frame, and which frames fit a category (nobody gets an allergy
 * from a visa guide). Data only: ./evidence.ts composes the posts.
 */
import type { SignalCategory } from '../../src/catalog/signal-categories'

export type Frame = 'price' | 'quality' | 'experience' | 'safety' | 'aesthetics' | 'general'
type Pair = readonly [zh: string, en: string]

export interface CategoryWords {
  aspects: readonly Pair[]
  details: readonly Pair[]
  products: readonly Pair[]
  frames: readonly Frame[]
  /** Tone clauses of the safety frame that fit the category. */
  safety?: readonly Pair[]
}

const PRODUCT_FRAMES: readonly Frame[] = ['price', 'quality', 'general', 'aesthetics']

export const CATEGORY_WORDS: Readonly<Record<SignalCategory, CategoryWords>> = {
  beauty: {
    aspects: [['上脸体验', 'how it feels on skin'], ['成分表', 'the ingredient list'], ['油皮适用', 'oily-skin fit'], ['持妆时间', 'wear time'], ['空瓶记录', 'empties log']],
    details: [['坚持用了四周', 'used it for four weeks'], ['混油皮', 'combination skin'], ['搭配面霜一起用', 'paired with a moisturiser'], ['早晚各用一次', 'morning and night']],
    products: [['精华', 'serum'], ['面膜', 'face mask'], ['粉底液', 'foundation'], ['面霜', 'face cream']],
    frames: [...PRODUCT_FRAMES, 'safety'],
    safety: [['用完过敏了', 'it gave me a rash'], ['用完闷痘了', 'my skin had an allergic reaction']],
  },
  fashion: {
    aspects: [['版型', 'the cut'], ['面料手感', 'fabric feel'], ['通勤搭配', 'workwear pairing'], ['尺码建议', 'sizing advice'], ['一衣多穿', 'ways to wear it']],
    details: [['身高165穿M码', 'size M at 165 cm'], ['洗了三次', 'washed it three times'], ['秋冬都能穿', 'works for autumn and winter'], ['门店款式更多', 'stores carry more styles']],
    products: [['外套', 'jacket'], ['针织衫', 'knitwear'], ['牛仔裤', 'jeans'], ['连衣裙', 'dress']],
    frames: PRODUCT_FRAMES,
  },
  luxury: {
    aspects: [['专柜配货', 'boutique quotas'], ['保值率', 'resale prices'], ['做工细节', 'craftsmanship details'], ['入门款选择', 'entry-level picks'], ['限量款', 'limited edition']],
    details: [['在专柜买的', 'bought at the boutique'], ['配货周期两个月', 'a two-month quota wait'], ['配了小票和证书', 'came with receipt and certificate'], ['日常通勤背', 'carried daily to work']],
    products: [['手袋', 'handbag'], ['丝巾', 'silk scarf'], ['项链', 'necklace'], ['钱包', 'wallet']],
    frames: [...PRODUCT_FRAMES, 'safety'],
    safety: [['担心买到假货', 'worried about fakes'], ['鉴定说是假货', 'the authenticator said fake']],
  },
  travel: {
    aspects: [['行程路线', 'the itinerary'], ['住宿选择', 'where to stay'], ['当地美食', 'local food'], ['交通攻略', 'getting around'], ['拍照机位', 'photo spots']],
    details: [['一共五天四晚', 'five days, four nights'], ['机票提前一个月订的', 'booked flights a month ahead'], ['地铁换乘有点复杂', 'metro transfers take some planning'], ['住在市中心', 'stayed in the centre']],
    products: [['套餐', 'package'], ['行程', 'tour'], ['酒店', 'hotel stay'], ['航线', 'route']],
    frames: ['price', 'experience', 'aesthetics', 'general'],
  },
  'food-beverage': {
    aspects: [['口味', 'the taste'], ['新品', 'the new launch'], ['到店时段', 'opening hours'], ['门店环境', 'the shop itself'], ['热量', 'calories']],
    details: [['一杯二十多块', 'about 20 yuan a cup'], ['下午三点去的', 'went at 3 pm'], ['少糖去冰', 'less sugar, no ice'], ['外卖也能点', 'also on delivery apps']],
    products: [['新品', 'new drink'], ['招牌', 'signature item'], ['套餐', 'set meal'], ['礼盒', 'gift box']],
    frames: ['price', 'experience', 'quality', 'general', 'safety'],
    safety: [['吃完肚子不舒服', 'my stomach felt awful afterwards'], ['卫生很差', 'worried about food safety']],
  },
  'consumer-electronics': {
    aspects: [['续航', 'battery life'], ['上手体验', 'hands-on feel'], ['性能跑分', 'benchmarks'], ['系统更新', 'software updates'], ['配件生态', 'accessories']],
    details: [['用了一个月', 'used it for a month'], ['国补之后下单', 'ordered with the trade-in subsidy'], ['对比了三款', 'compared three models'], ['每天通勤在用', 'in daily commute use']],
    products: [['手机', 'phone'], ['耳机', 'earbuds'], ['手表', 'watch'], ['充电器', 'charger']],
    frames: [...PRODUCT_FRAMES, 'safety'],
    safety: [['电池鼓包了，很失望', 'the battery swelled, terrible'], ['充电发烫让人担心', 'worried about battery safety']],
  },
  'home-living': {
    aspects: [['收纳空间', 'storage space'], ['安装过程', 'installation'], ['日常清洁', 'everyday cleaning'], ['配色搭配', 'colour matching'], ['噪音大小', 'noise level']],
    details: [['六十平的小家', 'a 60 m² flat'], ['自己动手装的', 'installed it myself'], ['住了半年', 'lived with it six months'], ['租房也能用', 'fine for a rented flat']],
    products: [['扫地机', 'robot vacuum'], ['沙发', 'sofa'], ['香薰', 'diffuser'], ['置物架', 'shelving unit']],
    frames: [...PRODUCT_FRAMES, 'safety'],
    safety: [['甲醛超标，后悔买了', 'the chemical smell is awful'], ['有安全隐患', 'feels unsafe']],
  },
  'outdoor-sports': {
    aspects: [['装备清单', 'the kit list'], ['路线难度', 'route difficulty'], ['新手入门', 'getting started'], ['场地预约', 'booking a spot'], ['天气准备', 'weather prep']],
    details: [['离市区一小时车程', 'an hour from the city'], ['带了全套装备', 'brought the full kit'], ['早上六点出发', 'left at 6 am'], ['一共走了十二公里', 'twelve kilometres in all']],
    products: [['冲锋衣', 'shell jacket'], ['帐篷', 'tent'], ['跑鞋', 'running shoes'], ['背包', 'backpack']],
    frames: [...PRODUCT_FRAMES, 'experience'],
  },
  parenting: {
    aspects: [['宝宝反应', "the baby's reaction"], ['选购要点', 'what to check'], ['月龄适用', 'age fit'], ['出门便携', 'portability'], ['价格对比', 'price comparison']],
    details: [['宝宝八个月', 'our baby is eight months'], ['老大老二都在用', 'both kids use it'], ['跟其他宝妈交流过', 'asked other parents'], ['用了三个月', 'used it for three months']],
    products: [['奶瓶', 'baby bottle'], ['纸尿裤', 'diapers'], ['辅食', 'baby food'], ['湿巾', 'baby wipes']],
    frames: [...PRODUCT_FRAMES, 'safety'],
    safety: [['宝宝喝了过敏', 'our baby had an allergic reaction'], ['质量问题让人担心', 'worried about safety']],
  },
  pets: {
    aspects: [['适口性', 'palatability'], ['配方成分', 'the recipe'], ['换粮过渡', 'switching over'], ['日常护理', 'everyday care'], ['毛孩子反应', 'how the pet took it']],
    details: [['家里两只猫', 'two cats at home'], ['七天换粮', 'switched over seven days'], ['一袋吃一个月', 'a bag lasts a month'], ['狗狗三岁', 'our dog is three']],
    products: [['猫罐头', 'wet food tins'], ['猫爬架', 'cat tree'], ['猫砂', 'cat litter'], ['狗粮', 'dog food']],
    frames: [...PRODUCT_FRAMES, 'safety'],
    safety: [['猫吃了拉稀，踩雷了', "bad for my cat's stomach"], ['配方有隐患', 'worried about the recipe safety']],
  },
  automotive: {
    aspects: [['续航表现', 'real-world range'], ['智驾体验', 'driver assistance'], ['空间表现', 'cabin space'], ['充电便利', 'charging convenience'], ['落地价格', 'on-the-road price']],
    details: [['开了一万公里', 'drove 10,000 km'], ['周末试驾', 'test drive at the weekend'], ['冬天开了三个月', 'three months of winter driving'], ['家里装了充电桩', 'installed a home charger']],
    products: [['新车', 'new model'], ['SUV', 'SUV'], ['轿车', 'sedan'], ['改款', 'facelift']],
    frames: [...PRODUCT_FRAMES, 'safety'],
    safety: [['刹车异响，很糟糕', 'the brakes are terrible'], ['有安全隐患', 'feels unsafe']],
  },
  gaming: {
    aspects: [['剧情', 'the story'], ['画面', 'graphics'], ['氪金程度', 'spending pressure'], ['联机体验', 'multiplayer'], ['新版本', 'the new version']],
    details: [['玩了二十小时', 'twenty hours in'], ['周末开黑', 'weekend sessions with friends'], ['首发入的', 'bought at launch'], ['每天上线做任务', 'logging in daily']],
    products: [['新作', 'new game'], ['皮肤礼包', 'skin bundle'], ['资料片', 'expansion'], ['联名礼盒', 'collab box']],
    frames: ['price', 'quality', 'experience', 'general', 'aesthetics'],
  },
}

/** Tone clauses per frame, as real posts phrase them. */
export const TONE_WORDS: Readonly<Record<'pos' | 'neg', Partial<Record<Frame, readonly Pair[]>>>> = {
  pos: {
    price: [['性价比很高', 'great value for money'], ['价格很划算', 'worth every penny'], ['这个价位真的值', 'well worth the price']],
    quality: [['质量很好', 'really good quality'], ['效果很明显', 'works really well'], ['做工很扎实', 'really well made']],
    experience: [['体验超棒', 'an amazing experience'], ['服务很贴心', 'super friendly staff'], ['整个过程很舒服', 'the whole thing was comfortable']],
    aesthetics: [['颜值太好看了', 'looks beautiful'], ['拍照超好看', 'so photogenic'], ['氛围感满满', 'lovely atmosphere']],
    general: [['强烈推荐', 'highly recommend'], ['真的很喜欢', 'absolutely love it'], ['已经回购了', 'already bought it again']],
  },
  neg: {
    price: [['价格太贵了', 'way too expensive'], ['感觉是智商税', 'a total rip-off'], ['性价比很低', 'overpriced for what it is']],
    quality: [['质量一般', 'poor quality'], ['用了两次就坏了', 'broke after two uses'], ['有点失望', 'really disappointed']],
    experience: [['人太多了', 'far too crowded'], ['排队两小时', 'queued for two hours'], ['服务态度很差', 'rude staff']],
    aesthetics: [['实物很难看', 'looks awful in person'], ['和图片差太多', 'disappointing next to the photos']],
    general: [['踩雷了', 'would not recommend'], ['不推荐', 'not worth it'], ['后悔了', 'regret buying it']],
  },
}

export const NEUTRAL_WORDS: readonly Pair[] = [['记录一下', 'sharing my notes'], ['整理了一份清单', 'a quick comparison'], ['大家怎么看', 'what do you think'], ['附上攻略', 'full guide below']]

export const OPENERS: { zh: readonly string[]; en: readonly string[] } = {
  zh: ['今天聊聊', '周末试了', '第一次体验', '终于入手', '实测', '分享一下'],
  en: ['Finally tried', 'Weekend notes on', 'First time with', 'My take on', 'Trying out'],
}

/** How a destination post names the trip. */
export const TRIP_WORDS: readonly Pair[] = [['自由行', 'independent trip'], ['五日游', 'five-day trip'], ['出境游', 'trip abroad'], ['周末游', 'long weekend']]

export const WEB_AUTHORS: { zh: readonly string[]; en: readonly string[] } = {
  zh: ['新消费观察', '生活方式研究室', '城市周刊', '趋势情报站', '消费洞察日报'],
  en: ['Consumer Pulse Review', 'Lifestyle Trends Weekly', 'China Retail Notes', 'Trend Desk Digest'],
}

/** Syllables of the long-tail (unranked) authors' handles. */
export const LONG_TAIL_HANDLES = {
  first: ['mimi', 'dou', 'xixi', 'awen', 'sisi', 'paopao', 'tutu', 'yaya', 'keke', 'lingling', 'haha', 'feifei'],
  second: ['notes', 'days', 'log', 'share', 'home', 'walks', 'eats', 'finds', 'room', 'box'],
} as const
