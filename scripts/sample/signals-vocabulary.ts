/**
 * Names behind the weekly signals sample. Topics are generic themes (real words, no figures about
 * anyone). Brands are invented names: the sample must never pass invented scores off as a real
 * company's. Creator handles are generated from syllables in ./signals.ts.
 */
import type { SignalCategory } from '../../src/catalog/signal-categories'

export interface TopicSeed {
  slug: string
  name: string
  zh: string
}

export const TOPICS: Readonly<Record<SignalCategory, readonly TopicSeed[]>> = {
  beauty: [
    { slug: 'sunscreen', name: 'Sunscreen', zh: '防晒' },
    { slug: 'morning-c-evening-a', name: 'Morning C, evening A', zh: '早C晚A' },
    { slug: 'sensitive-skin', name: 'Sensitive skin care', zh: '敏感肌' },
    { slug: 'lip-tint', name: 'Lip tint', zh: '唇釉' },
    { slug: 'clean-beauty', name: 'Clean beauty', zh: '纯净美妆' },
    { slug: 'makeup-dupes', name: 'Makeup dupes', zh: '彩妆平替' },
    { slug: 'scalp-care', name: 'Scalp care', zh: '头皮护理' },
    { slug: 'mens-skincare', name: "Men's skincare", zh: '男士护肤' },
  ],
  fashion: [
    { slug: 'new-chinese-style', name: 'New Chinese style', zh: '新中式' },
    { slug: 'gorpcore', name: 'Gorpcore', zh: '山系穿搭' },
    { slug: 'old-money', name: 'Old money style', zh: '老钱风' },
    { slug: 'commute-outfits', name: 'Commute outfits', zh: '通勤穿搭' },
    { slug: 'down-jackets', name: 'Down jackets', zh: '羽绒服' },
    { slug: 'sneakers', name: 'Sneakers', zh: '球鞋' },
    { slug: 'capsule-wardrobe', name: 'Capsule wardrobe', zh: '胶囊衣橱' },
    { slug: 'dopamine-dressing', name: 'Dopamine dressing', zh: '多巴胺穿搭' },
  ],
  luxury: [
    { slug: 'entry-handbags', name: 'Entry-level handbags', zh: '入门包' },
    { slug: 'fine-jewelry', name: 'Fine jewelry', zh: '高级珠宝' },
    { slug: 'watches', name: 'Watches', zh: '腕表' },
    { slug: 'quiet-luxury', name: 'Quiet luxury', zh: '静奢风' },
    { slug: 'duty-free-shopping', name: 'Duty-free shopping', zh: '免税购物' },
    { slug: 'pre-owned-luxury', name: 'Pre-owned luxury', zh: '二奢' },
    { slug: 'gold-jewelry', name: 'Gold jewelry', zh: '黄金饰品' },
    { slug: 'luxury-unboxing', name: 'Luxury unboxing', zh: '奢品开箱' },
  ],
  travel: [
    { slug: 'city-walk', name: 'City walk', zh: '城市漫步' },
    { slug: 'visa-free-trips', name: 'Visa-free trips', zh: '免签游' },
    { slug: 'tokyo-travel', name: 'Tokyo travel', zh: '东京旅行' },
    { slug: 'island-holidays', name: 'Island holidays', zh: '海岛游' },
    { slug: 'special-forces-travel', name: 'Special-forces travel', zh: '特种兵旅游' },
    { slug: 'ski-trips', name: 'Ski trips', zh: '滑雪旅行' },
    { slug: 'golden-week', name: 'Golden Week plans', zh: '国庆出游' },
    { slug: 'hotel-reviews', name: 'Hotel reviews', zh: '酒店测评' },
  ],
  'food-beverage': [
    { slug: 'new-tea-drinks', name: 'New-style tea drinks', zh: '新茶饮' },
    { slug: 'coffee-shops', name: 'Coffee shops', zh: '咖啡探店' },
    { slug: 'hot-pot', name: 'Hot pot', zh: '火锅' },
    { slug: 'light-meals', name: 'Light meals', zh: '轻食' },
    { slug: 'regional-snacks', name: 'Regional snacks', zh: '地方小吃' },
    { slug: 'home-baking', name: 'Home baking', zh: '烘焙' },
    { slug: 'low-sugar', name: 'Low sugar', zh: '控糖' },
    { slug: 'late-night-food', name: 'Late-night food', zh: '夜宵' },
  ],
  'consumer-electronics': [
    { slug: 'foldable-phones', name: 'Foldable phones', zh: '折叠屏' },
    { slug: 'ai-pc', name: 'AI PCs', zh: 'AI电脑' },
    { slug: 'earbuds', name: 'Wireless earbuds', zh: '无线耳机' },
    { slug: 'smartwatches', name: 'Smartwatches', zh: '智能手表' },
    { slug: 'action-cameras', name: 'Action cameras', zh: '运动相机' },
    { slug: 'desk-setup', name: 'Desk setup', zh: '桌搭' },
    { slug: 'trade-in-subsidies', name: 'Trade-in subsidies', zh: '以旧换新' },
    { slug: 'power-banks', name: 'Power banks', zh: '充电宝' },
  ],
  'home-living': [
    { slug: 'small-apartment', name: 'Small apartment ideas', zh: '小户型' },
    { slug: 'cream-style', name: 'Cream-style interiors', zh: '奶油风' },
    { slug: 'robot-vacuums', name: 'Robot vacuums', zh: '扫地机器人' },
    { slug: 'storage-hacks', name: 'Storage hacks', zh: '收纳' },
    { slug: 'home-fragrance', name: 'Home fragrance', zh: '家居香氛' },
    { slug: 'balcony-garden', name: 'Balcony gardens', zh: '阳台花园' },
    { slug: 'smart-home', name: 'Smart home', zh: '智能家居' },
    { slug: 'renovation-diary', name: 'Renovation diary', zh: '装修日记' },
  ],
  'outdoor-sports': [
    { slug: 'camping', name: 'Camping', zh: '露营' },
    { slug: 'cycling', name: 'Road cycling', zh: '骑行' },
    { slug: 'hiking', name: 'Hiking', zh: '徒步' },
    { slug: 'frisbee', name: 'Ultimate frisbee', zh: '飞盘' },
    { slug: 'paddle-boarding', name: 'Paddle boarding', zh: '桨板' },
    { slug: 'marathon', name: 'Marathon running', zh: '马拉松' },
    { slug: 'skiing-gear', name: 'Skiing gear', zh: '滑雪装备' },
    { slug: 'padel', name: 'Padel', zh: '板式网球' },
  ],
  parenting: [
    { slug: 'baby-formula', name: 'Baby formula', zh: '奶粉' },
    { slug: 'early-education', name: 'Early education', zh: '早教' },
    { slug: 'family-travel', name: 'Family travel', zh: '亲子游' },
    { slug: 'strollers', name: 'Strollers', zh: '婴儿车' },
    { slug: 'picture-books', name: 'Picture books', zh: '绘本' },
    { slug: 'kids-nutrition', name: 'Kids nutrition', zh: '儿童营养' },
    { slug: 'postpartum-care', name: 'Postpartum care', zh: '产后修复' },
    { slug: 'school-supplies', name: 'School supplies', zh: '开学文具' },
  ],
  pets: [
    { slug: 'cat-food', name: 'Cat food', zh: '猫粮' },
    { slug: 'dog-training', name: 'Dog training', zh: '训狗' },
    { slug: 'pet-friendly-travel', name: 'Pet-friendly travel', zh: '带宠出行' },
    { slug: 'freeze-dried-treats', name: 'Freeze-dried treats', zh: '冻干' },
    { slug: 'pet-health', name: 'Pet health', zh: '宠物健康' },
    { slug: 'smart-litter-boxes', name: 'Smart litter boxes', zh: '智能猫砂盆' },
    { slug: 'pet-grooming', name: 'Pet grooming', zh: '宠物美容' },
    { slug: 'adoption', name: 'Pet adoption', zh: '领养代替购买' },
  ],
  automotive: [
    { slug: 'ev-range', name: 'EV range tests', zh: '续航测试' },
    { slug: 'smart-driving', name: 'Smart driving', zh: '智能驾驶' },
    { slug: 'road-trips', name: 'Road trips', zh: '自驾游' },
    { slug: 'car-camping', name: 'Car camping', zh: '车载露营' },
    { slug: 'charging', name: 'EV charging', zh: '充电桩' },
    { slug: 'first-car', name: 'First car', zh: '第一辆车' },
    { slug: 'car-interiors', name: 'Car interiors', zh: '汽车内饰' },
    { slug: 'plug-in-hybrids', name: 'Plug-in hybrids', zh: '插混' },
  ],
  gaming: [
    { slug: 'mobile-games', name: 'Mobile games', zh: '手游' },
    { slug: 'open-world', name: 'Open-world games', zh: '开放世界' },
    { slug: 'cosplay', name: 'Cosplay', zh: '角色扮演' },
    { slug: 'esports', name: 'Esports', zh: '电竞' },
    { slug: 'handheld-consoles', name: 'Handheld consoles', zh: '掌机' },
    { slug: 'indie-games', name: 'Indie games', zh: '独立游戏' },
    { slug: 'game-merch', name: 'Game merchandise', zh: '游戏周边' },
    { slug: 'live-streaming', name: 'Game live streaming', zh: '游戏直播' },
  ],
}

/** Invented brand names, ten per category. */
export const BRANDS: Readonly<Record<SignalCategory, readonly string[]>> = {
  beauty: ['Aurora Skin', 'Lumiere Lab', 'Qingyan Beauty', 'Velvet Moth', 'Peony Code', 'Cloudmilk', 'Saltwater Atelier', 'Jade Ritual', 'Mistbloom', 'Orchid Theory'],
  fashion: ['Linen Harbor', 'Northbound Denim', 'Silk Alley', 'Paperkite', 'Mono Tailor', 'Ember Street', 'Willow Thread', 'Stoneflower', 'Kite & Pine', 'Urban Crane'],
  luxury: ['Maison Verlaine', 'Castellan', 'Aurum Row', 'Sable & Rue', 'Orlanne', 'Halcyon Gold', 'Marchetti Viale', 'Celestine Paris', 'Vantor', 'Goldleaf Heritage'],
  travel: ['Skylark Trips', 'Harbor & Hill Hotels', 'Lantern Journeys', 'Bluefin Cruises', 'Compass Nomad', 'Snowline Resorts', 'Tidewater Stays', 'Jetleaf Air', 'Pathwise', 'Islandhop'],
  'food-beverage': ['Leaf & Bubble', 'Morning Kiln Coffee', 'Chili Lantern', 'Oat Cloud', 'Sesame Story', 'Tidal Tea', 'Ginger Moon', 'Crumb Theory', 'Plum Orchard', 'Night Market Co'],
  'consumer-electronics': ['Voltbloom', 'Pixelcraft', 'Nimbus Audio', 'Hexa Mobile', 'Lumen Wear', 'Orbit Cam', 'Tessera PC', 'Quanta Charge', 'Echo Pine', 'Stratus Labs'],
  'home-living': ['Nestwell', 'Cream Cottage', 'Sweepbot', 'Cedar & Clay', 'Boxwise', 'Aroma Hollow', 'Brightnook', 'Loomhouse', 'Terrace Green', 'Quietroom'],
  'outdoor-sports': ['Trailforge', 'Summit Ant', 'Riverstone Outdoor', 'Spinwheel Cycles', 'Fernpeak', 'Wavecrest Boards', 'Ridgeline Run', 'Campfire Lab', 'Polar Fox Gear', 'Pebble Court'],
  parenting: ['Little Lantern', 'Milkstar', 'Tiny Voyage', 'Bloombaby', 'Storynest', 'Cradle & Co', 'Sprout Kitchen', 'Mama Cloud', 'Pocket Owl', 'Sunnyseed'],
  pets: ['Whisker Farm', 'Pawsome Pantry', 'Tailwind Pets', 'Furball Lab', 'Catnap Co', 'Barkside', 'Purrfect Bowl', 'Snoutsnack', 'Meadow Paw', 'Litterly'],
  automotive: ['Voltaris Motors', 'Zephyr EV', 'Kestrel Auto', 'Lumio Drive', 'Northstar Hybrid', 'Cobalt Charge', 'Tundra Motors', 'Arclight EV', 'Roamwell', 'Pinecar'],
  gaming: ['Starforge Games', 'Pixel Lotus', 'Dragonkite Studio', 'Neon Shrine', 'Moonlit Arcade', 'Cinder Byte', 'Jadeblade', 'Loop Raccoon', 'Nova Paw', 'Quest Lantern'],
}

/** Brands also covered in a second category (e.g. a luxury house in fashion): [category, brand, other category]. */
export const CROSS_LISTED: readonly [SignalCategory, string, SignalCategory][] = [
  ['luxury', 'Maison Verlaine', 'fashion'],
  ['luxury', 'Celestine Paris', 'beauty'],
  ['outdoor-sports', 'Trailforge', 'fashion'],
  ['consumer-electronics', 'Orbit Cam', 'outdoor-sports'],
  ['automotive', 'Zephyr EV', 'consumer-electronics'],
  ['travel', 'Islandhop', 'outdoor-sports'],
  ['pets', 'Tailwind Pets', 'travel'],
]

/** Syllables for fictional creator handles and Chinese display names. */
export const HANDLE_PARTS = {
  first: ['xiao', 'lin', 'momo', 'tang', 'ayu', 'kiki', 'nana', 'yoyo', 'bobo', 'dudu', 'lulu', 'mimi', 'zhou', 'qiqi', 'ranran', 'jiajia', 'coco', 'lele'],
  second: ['daily', 'notes', 'lab', 'diary', 'talks', 'life', 'picks', 'guide', 'studio', 'journal', 'club', 'corner'],
  zhFirst: ['小', '阿', '大', '胖', '甜', '野', '酷', '闲'],
  zhSecond: ['林', '唐', '鹿', '桃', '米', '柚', '栗', '鱼', '橙', '豆', '熊', '猫'],
  zhSuffix: ['日记', '笔记', '说', '研究所', '频道', '的小日子', '分享'],
} as const

/** What a creator of each category calls their feed, Chinese. */
export const CATEGORY_NOUN_ZH: Readonly<Record<SignalCategory, string>> = {
  beauty: '美妆', fashion: '穿搭', luxury: '奢品', travel: '旅行', 'food-beverage': '吃货', 'consumer-electronics': '数码',
  'home-living': '家居', 'outdoor-sports': '户外', parenting: '育儿', pets: '萌宠', automotive: '玩车', gaming: '游戏',
}

/** Chinese names of the invented brands, as Chinese posts write them. */
export const BRAND_ZH: Readonly<Record<string, string>> = {
  'Aurora Skin': '极光肌', 'Lumiere Lab': '流光研究所', 'Qingyan Beauty': '清妍', 'Velvet Moth': '绒蛾', 'Peony Code': '牡丹密码',
  Cloudmilk: '云乳', 'Saltwater Atelier': '海盐工坊', 'Jade Ritual': '玉仪', Mistbloom: '雾绽', 'Orchid Theory': '兰理',
  'Linen Harbor': '麻港', 'Northbound Denim': '北向牛仔', 'Silk Alley': '丝巷', Paperkite: '纸鸢', 'Mono Tailor': '单裁',
  'Ember Street': '余烬街', 'Willow Thread': '柳线', Stoneflower: '石上花', 'Kite & Pine': '鸢与松', 'Urban Crane': '城鹤',
  'Maison Verlaine': '维兰之家', Castellan: '卡斯特兰', 'Aurum Row': '金巷', 'Sable & Rue': '貂与芸', Orlanne: '奥兰妮',
  'Halcyon Gold': '翠鸟金', 'Marchetti Viale': '马尔凯蒂', 'Celestine Paris': '赛勒斯汀', Vantor: '梵拓', 'Goldleaf Heritage': '金叶传承',
  'Skylark Trips': '云雀旅行', 'Harbor & Hill Hotels': '港丘酒店', 'Lantern Journeys': '灯笼之旅', 'Bluefin Cruises': '蓝鳍邮轮', 'Compass Nomad': '罗盘游牧',
  'Snowline Resorts': '雪线度假', 'Tidewater Stays': '潮汐民宿', 'Jetleaf Air': '叶航', Pathwise: '径知', Islandhop: '跳岛',
  'Leaf & Bubble': '叶泡', 'Morning Kiln Coffee': '晨窑', 'Chili Lantern': '辣灯笼', 'Oat Cloud': '燕麦云', 'Sesame Story': '芝麻物语',
  'Tidal Tea': '潮茶', 'Ginger Moon': '姜月', 'Crumb Theory': '碎屑理论', 'Plum Orchard': '梅园', 'Night Market Co': '夜市集',
  Voltbloom: '伏特花', Pixelcraft: '像素工坊', 'Nimbus Audio': '云雨声学', 'Hexa Mobile': '六角移动', 'Lumen Wear': '流明穿戴',
  'Orbit Cam': '轨道相机', 'Tessera PC': '镶嵌电脑', 'Quanta Charge': '量子充', 'Echo Pine': '回声松', 'Stratus Labs': '层云实验室',
  Nestwell: '安巢', 'Cream Cottage': '奶油小屋', Sweepbot: '扫宝', 'Cedar & Clay': '杉与陶', Boxwise: '盒智',
  'Aroma Hollow': '香谷', Brightnook: '亮角', Loomhouse: '织屋', 'Terrace Green': '露台绿', Quietroom: '静室',
  Trailforge: '径锻', 'Summit Ant': '峰蚁', 'Riverstone Outdoor': '河石', 'Spinwheel Cycles': '旋轮单车', Fernpeak: '蕨峰',
  'Wavecrest Boards': '浪尖桨板', 'Ridgeline Run': '山脊跑', 'Campfire Lab': '篝火实验室', 'Polar Fox Gear': '极地狐', 'Pebble Court': '卵石球场',
  'Little Lantern': '小灯笼', Milkstar: '奶星', 'Tiny Voyage': '小航程', Bloombaby: '绽宝', Storynest: '故事窝',
  'Cradle & Co': '摇篮家', 'Sprout Kitchen': '芽芽厨房', 'Mama Cloud': '妈妈云', 'Pocket Owl': '口袋猫头鹰', Sunnyseed: '阳光种子',
  'Whisker Farm': '胡须农场', 'Pawsome Pantry': '爪爪食堂', 'Tailwind Pets': '顺风萌宠', 'Furball Lab': '毛球实验室', 'Catnap Co': '猫憩',
  Barkside: '汪边', 'Purrfect Bowl': '呼噜碗', Snoutsnack: '鼻尖零食', 'Meadow Paw': '草甸爪', Litterly: '砂砂',
  'Voltaris Motors': '沃塔里斯汽车', 'Zephyr EV': '和风电动', 'Kestrel Auto': '红隼汽车', 'Lumio Drive': '露米奥', 'Northstar Hybrid': '北极星混动',
  'Cobalt Charge': '钴充', 'Tundra Motors': '冻原汽车', 'Arclight EV': '弧光电动', Roamwell: '漫行', Pinecar: '松车',
  'Starforge Games': '星锻游戏', 'Pixel Lotus': '像素莲', 'Dragonkite Studio': '龙鸢工作室', 'Neon Shrine': '霓虹神社', 'Moonlit Arcade': '月光街机',
  'Cinder Byte': '余火字节', Jadeblade: '玉刃', 'Loop Raccoon': '环浣熊', 'Nova Paw': '新星爪', 'Quest Lantern': '任务灯笼',
}

export type Disposition = 'praised' | 'liked' | 'mixed' | 'criticised'

/** How people feel about an entity of the sample world: the tone mix of its evidence. */
export const DISPOSITION: Readonly<Record<Disposition, { pos: number; neg: number }>> = {
  praised: { pos: 0.72, neg: 0.08 },
  liked: { pos: 0.52, neg: 0.18 },
  mixed: { pos: 0.38, neg: 0.36 },
  criticised: { pos: 0.16, neg: 0.62 },
}

/** Brands and topics whose reception the sample world fixes; every other one is `liked`. */
export const BRAND_DISPOSITION: Readonly<Record<string, Disposition>> = {
  'Aurora Skin': 'praised', 'Velvet Moth': 'criticised', Cloudmilk: 'mixed',
  'Northbound Denim': 'praised', 'Ember Street': 'criticised',
  Castellan: 'praised', Vantor: 'criticised', 'Celestine Paris': 'mixed',
  'Skylark Trips': 'praised', 'Bluefin Cruises': 'criticised', 'Jetleaf Air': 'mixed',
  'Leaf & Bubble': 'praised', 'Chili Lantern': 'criticised', 'Morning Kiln Coffee': 'mixed',
  'Nimbus Audio': 'praised', 'Hexa Mobile': 'criticised',
  Sweepbot: 'praised', 'Cream Cottage': 'criticised',
  Trailforge: 'praised', 'Summit Ant': 'criticised',
  Milkstar: 'criticised', Storynest: 'praised',
  'Pawsome Pantry': 'praised', Litterly: 'criticised',
  'Zephyr EV': 'praised', 'Tundra Motors': 'criticised', 'Kestrel Auto': 'mixed',
  'Starforge Games': 'praised', 'Cinder Byte': 'criticised',
}

export const TOPIC_DISPOSITION: Readonly<Record<string, Disposition>> = {
  'makeup-dupes': 'mixed', 'sensitive-skin': 'mixed', 'pre-owned-luxury': 'criticised', 'special-forces-travel': 'mixed',
  'hotel-reviews': 'mixed', 'trade-in-subsidies': 'mixed', 'smart-driving': 'mixed', 'baby-formula': 'criticised',
  'late-night-food': 'praised', 'picture-books': 'praised', 'dopamine-dressing': 'praised',
}

/**
 * Topics that surge or fade in the last weeks of the sample (from TREND_FROM_WEEK_INDEX on, by
 * TREND_PER_WEEK in log terms per week): the world's clear risers and fallers, one of each per category.
 */
export const TOPIC_TREND: Readonly<Record<string, 'surging' | 'fading'>> = {
  'clean-beauty': 'surging', 'lip-tint': 'fading',
  'dopamine-dressing': 'surging', 'down-jackets': 'fading',
  'quiet-luxury': 'surging', 'luxury-unboxing': 'fading',
  'ski-trips': 'surging', 'special-forces-travel': 'fading',
  'low-sugar': 'surging', 'hot-pot': 'fading',
  'ai-pc': 'surging', 'power-banks': 'fading',
  'robot-vacuums': 'surging', 'cream-style': 'fading',
  camping: 'surging', frisbee: 'fading',
  'picture-books': 'surging', strollers: 'fading',
  'freeze-dried-treats': 'surging', 'pet-grooming': 'fading',
  'smart-driving': 'surging', 'plug-in-hybrids': 'fading',
  'handheld-consoles': 'surging', esports: 'fading',
}
export const TREND_FROM_WEEK_INDEX = 48
export const TREND_PER_WEEK = 0.12
