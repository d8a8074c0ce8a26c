import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
var __webpack_exports__ = {};

;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
;// CONCATENATED MODULE: ./src/emulator/banner.ts
/** The variable brcloud's launcher sets for the emulator it runs. */
const FACE_VARIABLE = 'BRCLOUD_EMULATOR_FACE';
function faceOf(env) {
    return env[FACE_VARIABLE] === 'brcloud' ? 'brcloud' : 'clone';
}
/** --help's usage line. */
function usageLine(face) {
    return face === 'brcloud' ? 'Usage: brcloud emulator [flags]' : 'Usage: npm run emulator -- [flags]      (or: npx tsx src/emulator/cli.ts [flags])';
}
/** What --github prints for, in --help. */
function gitHubFor(face) {
    return face === 'brcloud'
        ? 'for brcloud deploy (GITHUB_API_URL, BRCLOUD_GITHUB_TOKEN, --repository, --commit)'
        : 'for npm run action (GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_SHA) and its github-token';
}
/** The lines that say how to deploy to this emulator: the action from a clone, or the brcloud command. */
function deployLines(emulator, github, face) {
    const { sso } = emulator;
    if (face === 'clone') {
        const login = sso === undefined
            ? `username=${emulator.username} password=${emulator.password}`
            : `token-url=${sso.tokenUrl} client-id=${sso.federatedClientId} oidc-audience=${sso.oidcAudience} audience=${sso.audience}`;
        const token = github ? ` github-token=${github.token}` : '';
        return [
            'Run the action against it, e.g. with the sample distribution (npm run sample -- sample-distribution):',
            `  npm run action -- api-url=${emulator.url} ${login} distribution=sample-distribution environment=development${token}`
        ];
    }
    // A secret is never a flag of brcloud: it goes in the environment. The OIDC login is the action's alone: brcloud logs in as the client.
    const [secret, login] = sso === undefined
        ? [`BRCLOUD_PASSWORD=${emulator.password}`, `--username ${emulator.username}`]
        : [`BRCLOUD_CLIENT_SECRET=${sso.clientSecret}`, `--token-url ${sso.tokenUrl} --client-id ${sso.clientId} --audience ${sso.audience}`];
    const order = github ? ` --repository ${github.repository} --commit ${github.tip}` : '';
    return [
        "Deploy to it with brcloud (--distribution: your build's .tar.gz, or a folder to pack), from another terminal:",
        `  export ${secret}`,
        `  brcloud deploy --api-url ${emulator.url} ${login} --environment development --distribution PATH${order}`
    ];
}
/** The single sign-on mode's lines: the identity provider, and how a run gets GitHub's OIDC token here. */
function ssoLines(sso, face) {
    const lines = [
        `Single sign-on: the password login is disabled; the cloud API takes access tokens (audience ${sso.audience}) of this identity provider:`,
        `  issuer:         ${sso.issuer} (discovery: ${sso.issuer}/.well-known/openid-configuration)`,
        `  token URL:      ${sso.tokenUrl}`,
        `  client:         ${sso.clientId} / ${sso.clientSecret}`,
        `  federated:      ${sso.federatedClientId} with a GitHub OIDC token for audience ${sso.oidcAudience}, subject ${sso.federationSubject}`,
        `  GitHub OIDC:    issuer ${sso.oidcIssuer} (its keys served here), subject ${sso.oidcSubject}`
    ];
    if (face === 'brcloud')
        return [...lines, "GitHub's OIDC token is the GitHub Action's alone: brcloud deploy logs in as the client above (client credentials)."];
    return [
        ...lines,
        `Export these where you run npm run action, as a job with permissions: id-token: write has them:`,
        `  export ACTIONS_ID_TOKEN_REQUEST_URL='${sso.oidcRequestUrl}'`,
        `  export ACTIONS_ID_TOKEN_REQUEST_TOKEN='${sso.oidcRequestToken}'`
    ];
}
/** The GitHub stand-in's lines: its repository, commits, branch and tags, and what to export for a run of a job at the tip of main. */
function gitHubLines(github, history, face) {
    const { branch } = history;
    const branchTip = branch.commits.at(-1) ?? '';
    const head = [
        `GitHub API stand-in listening on ${github.url}: repository ${github.repository} (Deployments, their statuses, compare, tags, issues)`,
        `  commits on main, oldest first: ${history.main.join(' ')}`,
        `  branch ${branch.name}, off the second commit of main: ${branch.commits.join(' ')}`,
        `  tags: ${history.tags.map((t) => `${t.name} (${t.annotated ? 'annotated, ' : ''}${t.commit.slice(0, 7)})`).join(', ')}`
    ];
    const tracks = `  track main, ${branch.name}, or v* (the newest tag, ${history.tags.at(-1)?.name ?? ''})`;
    // The command's lines export the token already: brcloud status needs only the repository besides.
    const status = (also) => [`For brcloud status, also export ${also}:`, tracks];
    if (face === 'brcloud') {
        return [
            ...head,
            `Export these where you run brcloud deploy (it then checks the deploy order and records GitHub Deployments of ${github.repository}):`,
            `  export GITHUB_API_URL='${github.url}'`,
            `  export BRCLOUD_GITHUB_TOKEN=${github.token}`,
            `  after a deploy, --commit ${github.older} (an older commit) to see the deploy order refuse it`,
            `  or --commit ${branchTip} (the tip of ${branch.name}) to deploy a commit of another line (diverged)`,
            ...status(`BRCLOUD_REPOSITORY=${github.repository}`)
        ];
    }
    return [
        ...head,
        `Export these where you run npm run action (the runner's variables of a job of ${github.repository} at the tip of main):`,
        `  export GITHUB_API_URL='${github.url}'`,
        `  export GITHUB_REPOSITORY=${github.repository}`,
        `  export GITHUB_SHA=${github.tip}`,
        `  and give the action github-token=${github.token}`,
        `  after a deploy, export GITHUB_SHA=${github.older} (an older commit) to see the deploy order refuse it`,
        `  or export GITHUB_SHA=${branchTip} (the tip of ${branch.name}) to deploy a commit of another line (diverged)`,
        ...status(`BRCLOUD_GITHUB_TOKEN=${github.token} and BRCLOUD_REPOSITORY=${github.repository}`)
    ];
}
/** The GitLab stand-in's lines: its project, commits, branch and tags, and what brcloud needs exported to deploy the tip of main. */
function gitLabLines(gitlab, history, face) {
    const { branch } = history;
    const tip = history.main.at(-1) ?? '';
    const older = history.main.at(-2) ?? '';
    const branchTip = branch.commits.at(-1) ?? '';
    // From a clone there is no brcloud on the path: the bundle the package would install is built here.
    const clone = face === 'clone' ? ['  (brcloud from this clone: npm run build:cli, then node dist-cli/index.js deploy ...)'] : [];
    return [
        `GitLab API stand-in listening on ${gitlab.url} (REST API v4 at ${gitlab.url}/api/v4): project ${gitlab.project} (deployments, environments, compare, merge base, tags, issues)`,
        `  commits on main, oldest first: ${history.main.join(' ')}`,
        `  branch ${branch.name}, off the second commit of main: ${branch.commits.join(' ')}`,
        `  tags: ${history.tags.map((t) => `${t.name} (${t.annotated ? 'annotated, ' : ''}${t.commit.slice(0, 7)})`).join(', ')}`,
        `Export these where you run brcloud deploy (it then checks the deploy order and records GitLab deployments of ${gitlab.project}):`,
        ...clone,
        `  export BRCLOUD_GITLAB_URL=${gitlab.url}`,
        `  export BRCLOUD_GITLAB_PROJECT=${gitlab.project}`,
        `  export BRCLOUD_GITLAB_TOKEN=${gitlab.token}`,
        `  export BRCLOUD_COMMIT=${tip}`,
        `  after a deploy, export BRCLOUD_COMMIT=${older} (an older commit) to see the deploy order refuse it`,
        `  or export BRCLOUD_COMMIT=${branchTip} (the tip of ${branch.name}) to deploy a commit of another line (diverged)`,
        `For brcloud status, the same BRCLOUD_GITLAB_* exports:`,
        `  track main, ${branch.name}, or v* (the newest tag, ${history.tags.at(-1)?.name ?? ''})`
    ];
}

;// CONCATENATED MODULE: external "node:util"
const external_node_util_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");
;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: external "node:timers/promises"
const external_node_timers_promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:timers/promises");
;// CONCATENATED MODULE: ./src/emulator/search-catalog.ts
// The emulator's built-in product catalog for the search API: a dozen products with all twelve
// requestable fields, in a few categories, and one keyword redirect.
const CATEGORIES = [
    { id: 'apparel', name: 'Apparel', parent: '' },
    { id: 'shirts', name: 'Shirts', parent: 'apparel' },
    { id: 'trousers', name: 'Trousers', parent: 'apparel' },
    { id: 'shoes', name: 'Shoes', parent: '' },
    { id: 'accessories', name: 'Accessories', parent: '' },
    /** A category with no products. */
    { id: 'gift-cards', name: 'Gift cards', parent: '' }
];
/** Keywords the emulated merchandiser redirects to a page (answered with numFound 0). */
const KEYWORD_REDIRECTS = {
    returns: 'https://www.example.com/customer-service/returns'
};
function product(pid, title, brand, price, salePrice, colors, sizes, categories, description) {
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return {
        pid,
        title,
        brand,
        price,
        sale_price: salePrice,
        thumb_image: `https://images.example.com/${pid}.jpg`,
        url: `https://www.example.com/products/${slug}/${pid}`,
        description,
        colors,
        sizes,
        price_range: [price, price],
        sale_price_range: [salePrice, salePrice],
        categories
    };
}
const PRODUCTS = [
    product('P1001', 'Oxford Shirt', 'Northwind', 59.95, 49.95, ['white', 'blue'], ['S', 'M', 'L', 'XL'], ['shirts'], 'Classic cotton oxford shirt with a button-down collar.'),
    product('P1002', 'Linen Shirt', 'Northwind', 69.95, 69.95, ['white', 'sand'], ['M', 'L'], ['shirts'], 'Light linen shirt for warm days.'),
    product('P1003', 'Flannel Shirt', 'Timberline', 54.5, 39.0, ['red', 'green'], ['S', 'M', 'L'], ['shirts'], 'Brushed flannel shirt in a tartan check.'),
    product('P1004', 'Polo Shirt', 'Courtside', 39.0, 29.0, ['navy', 'white', 'red'], ['S', 'M', 'L', 'XL'], ['shirts'], 'Pique cotton polo shirt.'),
    product('P2001', 'Slim Chino Trousers', 'Northwind', 79.0, 79.0, ['khaki', 'navy'], ['30', '32', '34'], ['trousers'], 'Slim-fit chino trousers in stretch cotton.'),
    product('P2002', 'Wool Trousers', 'Savile', 149.0, 119.0, ['grey', 'charcoal'], ['32', '34', '36'], ['trousers'], 'Tailored trousers in fine wool.'),
    product('P2003', 'Denim Jeans', 'Timberline', 89.0, 69.0, ['blue', 'black'], ['30', '32', '34', '36'], ['trousers'], 'Straight-leg denim jeans.'),
    product('P3001', 'Leather Sneakers', 'Courtside', 119.0, 99.0, ['white'], ['41', '42', '43', '44'], ['shoes'], 'Low-top sneakers in smooth leather.'),
    product('P3002', 'Running Shoes', 'Stride', 139.0, 139.0, ['black', 'red'], ['40', '41', '42', '43', '44', '45'], ['shoes'], 'Cushioned running shoes for long distances.'),
    product('P3003', 'Suede Boots', 'Timberline', 219.0, 179.0, ['brown'], ['41', '42', '43'], ['shoes'], 'Ankle boots in water-repellent suede.'),
    product('P4001', 'Leather Belt', 'Savile', 49.0, 49.0, ['brown', 'black'], ['90', '100', '110'], ['accessories'], 'Full-grain leather belt with a brass buckle.'),
    product('P4002', 'Wool Scarf', 'Northwind', 45.0, 35.0, ['grey', 'red', 'navy'], ['one size'], ['accessories'], 'Soft merino wool scarf.')
];
function categoryById(id) {
    return CATEGORIES.find((c) => c.id === id);
}
/** The category and its ancestors, top first. */
function categoryPath(id) {
    const path = [];
    for (let c = categoryById(id); c !== undefined && !path.includes(c); c = c.parent ? categoryById(c.parent) : undefined)
        path.unshift(c);
    return path;
}
/** The product is in the category or in one of its sub-categories. */
function inCategory(p, id) {
    return p.categories.some((c) => categoryPath(c).some((a) => a.id === id));
}
function content(itemId, title, description) {
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return { item_id: itemId, title, description, url: `https://www.example.com/content/${slug}` };
}
/** The one content catalog: any `catalog_name` other than the product catalog's (the domain key) searches it. */
const CONTENT_ITEMS = [
    content('C100', 'How to iron a shirt', 'Collars, cuffs and sleeves without creases, step by step.'),
    content('C101', 'Choosing a shirt collar', 'Button-down, spread or cutaway: which collar suits which occasion.'),
    content('C102', 'Caring for leather shoes', 'Cleaning, conditioning and storing leather sneakers and boots.'),
    content('C103', 'Size guide for trousers', 'How to measure waist and inside leg before you order.'),
    content('C104', 'Returns and exchanges', 'How to send an order back within 30 days.')
];

;// CONCATENATED MODULE: ./src/emulator/search-api.ts
// The product and category search API (`GET /api/v1/core/`) as an emulator module: the built-in
// catalogs (products, and content for content search), both facet formats, the service's q rewriting and
// error table, its cookie, and a delay knob.
// Errors are `{"status_code": …, "message": …}` like the real service (not the cloud API's shape).



const SEARCH_API_DEFAULTS = {
    accountId: '6001',
    authKey: 'emulator-auth-key',
    domainKey: 'emulator_domain',
    facetFormat: 'v3',
    delayMs: 0,
    emptyAuthKey: 'accept'
};
const SEARCH_COOKIE = 'br_emulator_session';
const MAX_REQUEST_BYTES = 16 * 1024;
const MAX_Q_CHARS = 300;
const MAX_Q_WORDS = 30;
const MAX_ROWS = 200;
const MAX_START = 10000;
const REQUESTABLE_FIELDS = [
    'pid',
    'title',
    'brand',
    'price',
    'sale_price',
    'thumb_image',
    'url',
    'description',
    'colors',
    'sizes',
    'price_range',
    'sale_price_range'
];
class SearchError extends Error {
    status;
    detail;
    constructor(status, detail) {
        super(detail);
        this.status = status;
        this.detail = detail;
    }
}
function newSearchState(settings = {}) {
    return { settings: { ...SEARCH_API_DEFAULTS, ...settings }, issuedCookies: new Set() };
}
/** Request line and headers in bytes, as the service counts them against its 16 KB limit. */
function requestBytes(ctx) {
    const { req } = ctx;
    let n = Buffer.byteLength(`${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}\r\n`);
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
        n += Buffer.byteLength(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`);
    return n + 2;
}
function presentedCookie(ctx, state) {
    const header = ctx.req.headers.cookie ?? '';
    for (const part of header.split(';')) {
        const [name, ...value] = part.trim().split('=');
        const v = value.join('=');
        if (name === SEARCH_COOKIE && state.issuedCookies.has(v))
            return v;
    }
    return undefined;
}
/**
 * The identifiers, refused only where the official client (@bloomreach/discovery-web-sdk) would never
 * send them so: `_br_uid_2` and `url` always come (its types require them); `request_id` (numeric, any
 * length) and `ref_url` are optional; `_br_uid_2` is any value the browser stored, but never one
 * percent-encoded twice (what still holds an escape once decoded here).
 */
function checkIdentifiers(params) {
    const requestId = params.get('request_id');
    if (requestId !== null && requestId !== '' && !/^\d{1,19}$/.test(requestId)) {
        throw new SearchError(400, `Invalid request_id "${requestId}": a number expected`);
    }
    const uid = params.get('_br_uid_2');
    if (uid === null || uid === '')
        throw new SearchError(400, 'Missing _br_uid_2');
    if (/%[0-9A-Fa-f]{2}/.test(uid))
        throw new SearchError(400, 'Invalid _br_uid_2: percent-encoded twice');
    if (params.get('url') === null)
        throw new SearchError(400, 'Missing url');
}
function integer(params, name, fallback) {
    const raw = params.get(name);
    if (raw === null || raw === '')
        return fallback;
    if (!/^\d+$/.test(raw))
        throw new SearchError(400, `Invalid ${name}: "${raw}" is not a non-negative integer`);
    return Number(raw);
}
/** The service's rewriting: a leading `*` is dropped, `*`, `?` and `~` between terms become spaces. */
function rewriteQuery(q) {
    if (q === '*' || q === '.')
        return q;
    return q.replace(/[*?~]/g, ' ').replace(/\s+/g, ' ').trim();
}
function searchText(p) {
    const categories = p.categories.flatMap((c) => categoryPath(c).map((a) => a.name));
    return [p.title, p.brand, p.description, ...p.colors, ...categories].join(' ').toLowerCase();
}
/** The fields asked for that a record has; a field it lacks (a product's item_id) is left out, as the service does. */
function project(record, fields) {
    const out = {};
    for (const f of fields)
        if (Object.hasOwn(record, f))
            out[f] = record[f];
    return out;
}
/** `brand:"A" OR "B"`, `colors:"red"` (or `color:`): the product has one of the values. */
function valueFilter(fq) {
    const m = /^\s*(brand|colors?)\s*:\s*(.+)$/i.exec(fq);
    if (m === null)
        return undefined;
    const wanted = [...(m[2] ?? '').matchAll(/"([^"]*)"|([^\s"]+)/g)].map((v) => (v[1] ?? v[2] ?? '').toLowerCase()).filter((v) => v !== 'or');
    const field = (m[1] ?? '').toLowerCase();
    return (p) => (field === 'brand' ? [p.brand] : p.colors).some((v) => wanted.includes(v.toLowerCase()));
}
/** A bound of a range: a number, `*` (open), either possibly quoted (`"100"`). */
function bound(raw, open) {
    const value = raw.replace(/^"(.*)"$/, '$1');
    if (value === '*')
        return open;
    return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : undefined;
}
/** `price:[10 TO 50]` (or sale_price), both ends included, `*` for an open end: what a price slider sends. */
function rangeFilter(fq) {
    const m = /^\s*(price|sale_price)\s*:\s*\[\s*(\S+)\s+TO\s+(\S+)\s*\]\s*$/i.exec(fq);
    if (m === null)
        return undefined;
    const field = (m[1] ?? '').toLowerCase();
    const [low, high] = [bound(m[2] ?? '', -Infinity), bound(m[3] ?? '', Infinity)];
    if (low === undefined || high === undefined)
        return undefined;
    return (p) => p[field] >= low && p[field] <= high;
}
/** The `fq` filters it honours: values of brand and colors, ranges of price and sale_price; any other is ignored, as listed in docs/emulator.md. */
function filterBy(params) {
    const tests = params
        .getAll('fq')
        .map((fq) => valueFilter(fq) ?? rangeFilter(fq))
        .filter((t) => t !== undefined);
    return (p) => tests.every((t) => t(p));
}
/** `sort=price asc|desc` (or sale_price); anything else keeps the catalogue's order. */
function sortBy(params, matches) {
    const m = /^\s*(price|sale_price)\s+(asc|desc)\s*$/i.exec(params.get('sort') ?? '');
    if (m === null)
        return matches;
    const field = (m[1] ?? 'price').toLowerCase();
    const sign = (m[2] ?? 'asc').toLowerCase() === 'desc' ? -1 : 1;
    return [...matches].sort((a, b) => sign * (a[field] - b[field]));
}
/** `stats.field=price` (or sale_price): `{stats_fields: {price: {min, max}}}` over the matches. */
function statsOf(params, matches) {
    const fields = params.getAll('stats.field').filter((f) => f === 'price' || f === 'sale_price');
    if (fields.length === 0 || matches.length === 0)
        return undefined;
    const stats = {};
    for (const f of fields)
        stats[f] = { min: Math.min(...matches.map((p) => p[f])), max: Math.max(...matches.map((p) => p[f])) };
    return { stats_fields: stats };
}
function countBy(values) {
    const counts = new Map();
    for (const v of values)
        counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}
const PRICE_BUCKETS = [
    [0, 50],
    [50, 100],
    [100, 200],
    [200, '*']
];
function categoryValues(matches) {
    return CATEGORIES.map((c) => {
        const path = categoryPath(c.id);
        return {
            cat_id: c.id,
            cat_name: c.name,
            count: matches.filter((p) => inCategory(p, c.id)).length,
            crumb: path.map((a) => a.name).join('>'),
            tree_path: `/${path.map((a) => a.id).join('/')}`,
            parent: c.parent
        };
    }).filter((v) => v.count > 0);
}
function priceRanges(matches) {
    return PRICE_BUCKETS.map(([start, end]) => ({
        start,
        end,
        count: matches.filter((p) => p.price >= start && (end === '*' || p.price < end)).length
    })).filter((r) => r.count > 0);
}
function v3Facets(matches) {
    if (matches.length === 0)
        return { facets: [] };
    const prices = matches.map((p) => p.sale_price);
    return {
        facets: [
            { name: 'category', type: 'text', value: categoryValues(matches) },
            { name: 'brand', type: 'text', value: countBy(matches.map((p) => p.brand)) },
            { name: 'colors', type: 'text', value: countBy(matches.flatMap((p) => p.colors)) },
            { name: 'price', type: 'number_range', value: priceRanges(matches) },
            { name: 'sale_price', type: 'number_stats', value: { start: Math.min(...prices), end: Math.max(...prices) } }
        ]
    };
}
function legacyFacets(matches) {
    if (matches.length === 0)
        return { facet_fields: {}, facet_ranges: {}, facet_queries: {} };
    return {
        facet_fields: {
            category: categoryValues(matches),
            brand: countBy(matches.map((p) => p.brand)),
            colors: countBy(matches.flatMap((p) => p.colors))
        },
        facet_ranges: { price: priceRanges(matches).map(({ start, end, count }) => ({ count, start, end })) },
        facet_queries: {}
    };
}
/**
 * Content search names its catalog (`catalog_name`, the official SDK's contentSearch); the product catalog's
 * name is the domain key (the SDK's docs of `catalog_views`), so that name, or none, searches the products.
 */
function isContentSearch(params, settings) {
    const catalog = params.get('catalog_name') ?? '';
    return catalog !== '' && catalog !== settings.domainKey;
}
function validate(ctx, state) {
    const { settings } = state;
    const bytes = requestBytes(ctx);
    if (bytes > MAX_REQUEST_BYTES)
        throw new SearchError(414, `Request-URI Too Long: the request is ${bytes} bytes (at most ${MAX_REQUEST_BYTES})`);
    const params = ctx.url.searchParams;
    const domainKey = params.get('domain_key');
    if (domainKey === null || domainKey === '')
        throw new SearchError(400, 'Missing domain_key: every request must carry the domain key');
    const accountId = params.get('account_id') ?? '';
    const authKey = params.get('auth_key') ?? '';
    // The sources disagree (docs/emulator.md): a client-side call sends no key (API reference, the official
    // SDK's README); the error-codes page says 403. Accepting is the default, refusing a mode.
    if (authKey === '' && settings.emptyAuthKey === 'refuse')
        throw new SearchError(403, 'Access denied: empty auth_key');
    if (authKey === '') {
        if (accountId !== settings.accountId)
            throw new SearchError(403, `Access denied: unknown account_id "${accountId}"`);
        ctx.record.note = 'a search without auth_key (a client-side call), accepted';
    }
    else if (accountId !== settings.accountId || authKey !== settings.authKey) {
        // Echoes the key on purpose, as a careless service might: clients must not print error messages unredacted.
        throw new SearchError(403, `Access denied: auth_key "${authKey}" is not valid for account_id "${accountId}"`);
    }
    if (domainKey !== settings.domainKey)
        throw new SearchError(400, `Invalid domain_key "${domainKey}" for account_id "${accountId}"`);
    checkIdentifiers(params);
    if (params.get('request_type') !== 'search')
        throw new SearchError(400, 'Invalid or empty request_type');
    const type = params.get('search_type');
    if (type !== 'keyword' && type !== 'category' && type !== 'bestseller')
        throw new SearchError(400, 'Invalid or empty search_type');
    const raw = (params.get('q') ?? (type === 'bestseller' ? '*' : '')).trim();
    if (raw === '')
        throw new SearchError(400, 'Missing or empty q');
    if (raw === '?' || raw === '~')
        throw new SearchError(400, `q "${raw}" is not allowed`);
    if ([...raw].length > MAX_Q_CHARS)
        throw new SearchError(400, `q is longer than ${MAX_Q_CHARS} characters`);
    const q = rewriteQuery(raw);
    if (q === '')
        throw new SearchError(400, 'Missing or empty q');
    if (q.split(' ').length > MAX_Q_WORDS)
        throw new SearchError(400, `q has more than ${MAX_Q_WORDS} words`);
    if (type === 'category' && [...raw].some((ch) => (ch.codePointAt(0) ?? 0) > 0x7f && /\p{L}/u.test(ch))) {
        throw new SearchError(400, 'Unsupported non-ASCII letter in the category id');
    }
    const rows = integer(params, 'rows', 10);
    const start = integer(params, 'start', 0);
    if (rows > MAX_ROWS || start > MAX_START) {
        throw new SearchError(400, `Pagination limit exceeded: requested start ${start}, rows ${rows}. Max start ${MAX_START}, rows ${MAX_ROWS}`);
    }
    // fl is not limited to product fields (content search asks for item_id): a field a record lacks is left out.
    const fl = (params.get('fl') ?? '')
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== '');
    const v3 = params.get('facet.version') === '3.0' || settings.facetFormat === 'v3';
    return { q, type, rows, start, fields: [...new Set(fl)], v3, content: isContentSearch(params, settings) };
}
function productMatches({ q, type }) {
    if (type === 'category')
        return categoryById(q) ? PRODUCTS.filter((p) => inCategory(p, q)) : [];
    if (q === '*' || q === '.' || type === 'bestseller')
        return [...PRODUCTS];
    const terms = q.toLowerCase().split(' ');
    return PRODUCTS.filter((p) => {
        const text = searchText(p);
        return terms.every((t) => text.includes(t));
    });
}
function productAnswer(params, request) {
    const { q, type, rows, start, v3 } = request;
    const fields = request.fields.length > 0 ? request.fields : [...REQUESTABLE_FIELDS];
    const redirect = type === 'keyword' ? KEYWORD_REDIRECTS[q.toLowerCase()] : undefined;
    const matches = redirect === undefined ? sortBy(params, productMatches(request).filter(filterBy(params))) : [];
    const body = {
        response: { numFound: matches.length, start, docs: matches.slice(start, start + rows).map((p) => project(p, fields)) },
        facet_counts: v3 ? v3Facets(matches) : legacyFacets(matches),
        category_map: Object.fromEntries(CATEGORIES.filter((c) => matches.some((p) => inCategory(p, c.id))).map((c) => [c.id, c.name])),
        did_you_mean: []
    };
    const stats = statsOf(params, matches);
    if (stats !== undefined)
        body.stats = stats;
    if (redirect !== undefined)
        body.keywordRedirect = { 'original query': q, 'redirected query': q, 'redirected url': redirect };
    return { numFound: matches.length, body, marks: [] };
}
function contentMatches({ q, type }) {
    if (q === '*' || q === '.' || type === 'bestseller')
        return [...CONTENT_ITEMS];
    const terms = q.toLowerCase().split(' ');
    return CONTENT_ITEMS.filter((item) => terms.every((t) => `${item.title} ${item.description}`.toLowerCase().includes(t)));
}
/**
 * Content search: records carry `item_id` when `fl` asks for it (the SDK's default fl). Any other field of
 * a content record, and every field when `fl` is absent, is the emulator's own (`content-fields`). Its
 * filters, sorts, stats and facets are not public: fq, sort and stats.field are ignored, the facets empty.
 */
function contentAnswer(request) {
    const { rows, start, v3 } = request;
    const matches = contentMatches(request);
    const fields = request.fields.length > 0 ? request.fields : ['item_id', 'title', 'description', 'url'];
    const docs = matches.slice(start, start + rows).map((item) => project(item, fields));
    const body = {
        response: { numFound: matches.length, start, docs },
        facet_counts: v3 ? v3Facets([]) : legacyFacets([]),
        category_map: {},
        did_you_mean: []
    };
    const ownFields = docs.some((doc) => Object.keys(doc).some((f) => f !== 'item_id'));
    return { numFound: matches.length, body, marks: ownFields ? ['content-fields'] : [] };
}
function searchApi(state) {
    return {
        name: 'search-api',
        routes: [
            {
                method: 'GET',
                path: '/api/v1/core/',
                operation: 'search',
                summary: "Product (search_type=keyword), category (search_type=category) or bestseller search, or a content catalog's (catalog_name, records with item_id); errors are {status_code, message}",
                handler: async (ctx) => {
                    const socket = ctx.req.socket;
                    const presented = presentedCookie(ctx, state);
                    ctx.record.search = { cookiePresented: presented !== undefined };
                    if (state.settings.delayMs > 0) {
                        await (0,external_node_timers_promises_namespaceObject.setTimeout)(state.settings.delayMs, undefined, { ref: false });
                        if (socket.destroyed)
                            return;
                    }
                    let request;
                    try {
                        request = validate(ctx, state);
                    }
                    catch (err) {
                        if (!(err instanceof SearchError))
                            throw err;
                        ctx.send(err.status, { status_code: err.status, message: err.detail });
                        return;
                    }
                    ctx.record.search.q = request.q;
                    const answer = request.content ? contentAnswer(request) : productAnswer(ctx.url.searchParams, request);
                    ctx.record.search.numFound = answer.numFound;
                    ctx.invent(...answer.marks);
                    const cookie = presented ?? (0,external_node_crypto_namespaceObject.randomBytes)(12).toString('hex');
                    state.issuedCookies.add(cookie);
                    // The cookie's name and attributes are not public (the specification says only that there is one).
                    ctx.invent(`cookie-${SEARCH_COOKIE}`);
                    ctx.send(200, answer.body, {
                        'set-cookie': `${SEARCH_COOKIE}=${cookie}; Path=/; Max-Age=1800; HttpOnly`,
                        'cache-control': 'no-store'
                    });
                }
            }
        ]
    };
}

;// CONCATENATED MODULE: external "node:http"
const external_node_http_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");
;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
;// CONCATENATED MODULE: external "node:zlib"
const external_node_zlib_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");
;// CONCATENATED MODULE: ./src/emulator/http-util.ts
// Small HTTP helpers shared by the emulator's API modules.

/** Thrown by handlers; the server answers it as `{"error_code", "error_detail"}`. */
class HttpError extends Error {
    status;
    code;
    detail;
    headers;
    closeConnection;
    name = 'HttpError';
    constructor(status, code, detail, headers = {}, 
    /** Close the connection after answering (the request body was not read). */
    closeConnection = false) {
        super(`${status} ${code}: ${detail}`);
        this.status = status;
        this.code = code;
        this.detail = detail;
        this.headers = headers;
        this.closeConnection = closeConnection;
    }
}
function errorBody(code, detail) {
    return { error_code: code, error_detail: detail };
}
/** `ServiceUnavailable` for 503, `TooManyRequests` for 429, ... */
function codeForStatus(status) {
    const text = external_node_http_namespaceObject.STATUS_CODES[status] ?? 'Error';
    return text.replace(/[^A-Za-z0-9 ]/g, '').replace(/(?:^|\s+)(\w)/g, (_, c) => c.toUpperCase());
}
function isJsonContentType(contentType) {
    if (contentType === undefined)
        return false;
    const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
/**
 * Reads the whole (small) body; 413 beyond `limit` bytes. A body over the limit is still read to its end
 * (and discarded): leaving a `for await` over a request early would destroy the socket before the answer.
 */
async function readBody(req, limit) {
    const tooLarge = () => new HttpError(413, 'PayloadTooLarge', `The request body is larger than ${limit} bytes`, {}, true);
    const declared = Number(req.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > limit)
        throw tooLarge();
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        size += chunk.length;
        if (size <= limit)
            chunks.push(chunk);
    }
    if (size > limit)
        throw tooLarge();
    return Buffer.concat(chunks);
}
/** Reads and discards the rest of the body. Resolves when it ended, or when the connection closed. */
async function drain(req) {
    let size = 0;
    try {
        for await (const chunk of req)
            size += chunk.length;
    }
    catch {
        // the client went away: nothing left to drain
    }
    return size;
}
function parseJson(body) {
    try {
        return { ok: true, value: JSON.parse(body.toString('utf8')) };
    }
    catch {
        return { ok: false };
    }
}

;// CONCATENATED MODULE: ./src/emulator/state.ts
// What the emulated stack holds: settings, tokens, distributions and environments, and their JSON shapes.


/** The platform's clock, `clockOffsetSeconds` off the runner's: every timestamp the platform writes. */
function platformNow(state) {
    return new Date(Date.now() + state.settings.clockOffsetSeconds * 1000).toISOString();
}
function stableId(kind, name) {
    const h = (0,external_node_crypto_namespaceObject.createHash)('sha1').update(`brcloud-emulator:${kind}:${name}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
/** A stable uuid-shaped id per environment name, so ids survive restarts of the emulator. */
function environmentId(name) {
    return stableId('environment', name);
}
/** A stable uuid-shaped id per application configuration file name (like environment ids). */
function appConfigFileId(name) {
    return stableId('appconfigfile', name);
}
function newEnvironment(name) {
    return { id: environmentId(name), name, distributionId: null, serving: null, status: 'empty', deployments: [] };
}
/** The backup an environment has when the emulator starts: a stable id per environment, taken at `createdAt`. */
function newBackup(environment, createdAt) {
    return { id: stableId('backup', environment.name), environmentId: environment.id, createdAt };
}
/** A backup a test set (setBackups): the `index`th of the environment's, taken at `createdAt`; its id stable for those. */
function setBackup(environment, index, createdAt) {
    return { id: stableId('backup', `${environment.name}#${index}@${createdAt}`), environmentId: environment.id, createdAt };
}
/** The platform's clock `hours` ago, as it writes timestamps. */
function platformHoursAgo(state, hours) {
    return new Date(Date.parse(platformNow(state)) - hours * 3_600_000).toISOString();
}
function newAppConfigFile(name) {
    return { id: appConfigFileId(name), name };
}
const AS_STORED = { idCase: 'as-stored', idWhileDeploying: 'reported' };
/** The answers each reading of the case writes ids in upper case in (the others write them as stored). */
const UPPER_IN = {
    'as-stored': [],
    upper: ['distribution', 'environment-list', 'environment-by-name', 'environment-deployed'],
    'upper-distributions': ['distribution'],
    'upper-environments': ['environment-list', 'environment-by-name', 'environment-deployed'],
    'upper-by-name': ['environment-by-name']
};
/** A distribution id as the platform writes it in `answer`. */
function writtenId(id, idCase, answer) {
    return UPPER_IN[idCase].includes(answer) ? id.toUpperCase() : id;
}
/**
 * The stored distribution a request names; when any answer writes ids in upper case, the platform cannot
 * expect the client to keep the case of the one it read, so an id matches in any case.
 */
function findDistribution(state, id) {
    if (UPPER_IN[state.settings.idCase].length === 0)
        return state.distributions.find((d) => d.id === id);
    const wanted = id.toLowerCase();
    return state.distributions.find((d) => d.id.toLowerCase() === wanted);
}
/** A distribution's record; with the 'numeric-id' upload answer, ids are numbers (their stored strings are digits). */
function distributionJson(d, numericId = false, md5Case = 'lower', idCase = 'as-stored') {
    return {
        id: numericId ? Number(d.id) : writtenId(d.id, idCase, 'distribution'),
        name: d.name,
        createdAt: d.createdAt,
        createdBy: d.createdBy,
        modifiedAt: d.modifiedAt,
        modifiedBy: d.modifiedBy,
        md5hash: md5Case === 'upper' ? d.md5hash.toUpperCase() : d.md5hash
    };
}
/** The `distributionId` field as the platform reports it: while deploying it may be missing or null. */
function distributionIdField(e, readings, answer) {
    if (e.status === 'deploying' && readings.idWhileDeploying === 'absent')
        return {};
    if (e.status === 'deploying' && readings.idWhileDeploying === 'null')
        return { distributionId: null };
    return { distributionId: e.distributionId === null ? null : writtenId(e.distributionId, readings.idCase, answer) };
}
/** An environment as `answer` writes it (the case of its `distributionId` may depend on the answer). */
function environmentJson(e, withStatus = true, readings = AS_STORED, answer = 'environment-list') {
    // strategy and deployedAt describe what runs, so a deploy still switching does not show in them.
    const applied = e.deployments.filter((d) => d.appliedAt !== null).at(-1);
    return {
        id: e.id,
        name: e.name,
        ...distributionIdField(e, readings, answer),
        ...(withStatus && { status: e.status }),
        strategy: applied?.strategy ?? null,
        deployedAt: applied?.appliedAt ?? null
    };
}
/** Checks `Authorization: Bearer <access token>` and returns the user; 401 otherwise. */
function authenticate(state, req) {
    const header = req.headers.authorization;
    const m = header === undefined ? null : /^bearer\s+(\S+)\s*$/i.exec(header);
    const unauthorized = (detail) => new HttpError(401, state.access.refusal, detail, { 'www-authenticate': 'Bearer realm="brcloud-emulator"' });
    if (m === null || m[1] === undefined)
        throw unauthorized('An "Authorization: Bearer <access token>" header is required');
    const check = state.access.check(m[1]);
    if (!check.ok)
        throw unauthorized(check.detail);
    return check.sub;
}

;// CONCATENATED MODULE: ./src/emulator/backups.ts
// Repository backups as a public backup tool (cloneRemote2Local) uses them: `GET /v3/backups` lists
// `{id, environmentId, createdAt}` as a JSON array (the tool iterates the answer itself), and
// `GET /v3/backups/{id}/repositorydownloadlink` answers 202 `{url}`, valid 15 minutes (public facts).
// The real URL is a signed link to a storage service; here it points at `/backup-files/{token}` on the
// emulator itself, which answers a small stand-in dump (both marked invented on the wire). The file is
// gzip, as Mission Control's `.gz` is: the public tool gunzips what it downloaded before loading it.




/** One buffer as the stream sendStream takes. */
async function* asStream(bytes) {
    yield bytes;
}
/** How long a download link is valid (public facts: 15 minutes). */
const BACKUP_LINK_SECONDS = 15 * 60;
/**
 * The stand-in repository dump, gzipped. Its name, content type and contents are the emulator's own: no
 * public source shows the storage service's headers. `application/gzip` (RFC 6713) and no
 * `Content-Encoding`: the body is the `.gz` file itself, so a client that decodes encodings keeps it whole.
 */
function backupFile(backup, environmentName) {
    const dump = [
        '-- brcloud emulator: a stand-in repository dump (SQL)',
        `-- backup ${backup.id} of environment ${environmentName}, taken ${backup.createdAt}`,
        ''
    ].join('\n');
    return { name: `${backup.id}.sql.gz`, contentType: 'application/gzip', body: (0,external_node_zlib_namespaceObject.gzipSync)(dump) };
}
function backupsApi(state) {
    /** Download links: token -> the backup and when the link stops working. Links may be used again until then (a tool retries). */
    const links = new Map();
    // In-process (the simulation) there is no listening address: the request's Host stands for it.
    const baseOf = (ctx) => `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
    return {
        name: 'backups',
        routes: [
            {
                method: 'GET',
                path: '/v3/backups',
                operation: 'list-backups',
                summary: 'Lists repository backups: [{id, environmentId, createdAt}] (one per environment, taken when the emulator started, unless told otherwise)',
                handler: (ctx) => {
                    authenticate(state, ctx.req);
                    ctx.send(200, state.backups.map(({ id, environmentId, createdAt }) => ({ id, environmentId, createdAt })));
                }
            },
            {
                method: 'GET',
                path: '/v3/backups/{id}/repositorydownloadlink',
                operation: 'backup-download-link',
                summary: "202 {url}: a link to the backup's repository dump, valid 15 minutes",
                handler: (ctx) => {
                    authenticate(state, ctx.req);
                    const id = ctx.params.id ?? '';
                    if (!state.backups.some((b) => b.id === id))
                        throw new HttpError(404, 'BackupNotFound', `No backup with id "${id}"`);
                    const now = Date.now();
                    for (const [token, link] of links)
                        if (now >= link.expiresAtMs)
                            links.delete(token);
                    const token = (0,external_node_crypto_namespaceObject.randomUUID)();
                    links.set(token, { backupId: id, expiresAtMs: now + BACKUP_LINK_SECONDS * 1000 });
                    ctx.invent('download-url');
                    ctx.send(202, { url: `${baseOf(ctx)}/backup-files/${token}` });
                }
            },
            {
                method: 'GET',
                path: '/backup-files/{token}',
                operation: 'backup-file',
                summary: 'The stand-in dump a download link points at, gzipped (a .sql.gz; no authorization: the link is the credential; 403 once expired)',
                handler: async (ctx) => {
                    ctx.invent('backup-file');
                    const link = links.get(ctx.params.token ?? '');
                    const backup = link === undefined || Date.now() >= link.expiresAtMs ? undefined : state.backups.find((b) => b.id === link.backupId);
                    if (backup === undefined)
                        throw new HttpError(403, 'AccessDenied', 'The download link is unknown or has expired');
                    const env = state.environments.find((e) => e.id === backup.environmentId);
                    const file = backupFile(backup, env?.name ?? backup.environmentId);
                    const headers = { 'content-type': file.contentType, 'content-disposition': `attachment; filename="${file.name}"` };
                    await ctx.sendStream(200, headers, file.body.length, asStream(file.body));
                }
            }
        ]
    };
}

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: ./src/emulator/docs-page.ts
function docs_page_escape(text) {
    return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}
function docsPage(routes) {
    const rows = routes
        .map((r) => `<tr><td><code>${docs_page_escape(r.method)}</code></td><td><code>${docs_page_escape(r.path)}</code></td>` +
        `<td>${docs_page_escape(r.operation)}</td><td>${docs_page_escape(r.summary ?? '')}</td></tr>`)
        .join('\n');
    return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bloomreach Cloud API emulator</title></head>
<body>
<h1>Bloomreach Cloud deployment API (local emulator)</h1>
<p>Authenticated calls need <code>Authorization: Bearer &lt;access_token&gt;</code> from
<code>POST /v3/authn/access_token</code>. Paths must not end with a slash.
Errors are JSON <code>{"error_code": "...", "error_detail": "..."}</code>.</p>
<table border="1" cellpadding="4">
<tr><th>Method</th><th>Path</th><th>Operation</th><th>Description</th></tr>
${rows}
</table>
</body>
</html>
`;
}

;// CONCATENATED MODULE: external "node:events"
const external_node_events_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");
;// CONCATENATED MODULE: ./src/emulator/multipart.ts
// Streaming multipart/form-data parser (RFC 7578 / RFC 2046). It never holds more than one chunk plus
// a boundary's worth of bytes: part bodies come out as slices of the chunks fed in, ready to be streamed.
class MultipartError extends Error {
    name = 'MultipartError';
}
/** Splits `type/subtype; a=b; c="d"` into its lower-cased value and its parameters (names lower-cased). */
function parseHeaderValue(header) {
    const semicolon = header.indexOf(';');
    const value = (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
    const params = {};
    const re = /;\s*([^=\s;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
    const rest = semicolon < 0 ? '' : header.slice(semicolon);
    for (let m = re.exec(rest); m !== null; m = re.exec(rest)) {
        const key = (m[1] ?? '').toLowerCase();
        let raw = (m[2] ?? '').trim();
        if (raw.startsWith('"'))
            raw = raw.slice(1, -1).replace(/\\(.)/g, '$1');
        params[key] = raw;
    }
    return { value, params };
}
/** The boundary of a `multipart/form-data` content type, or undefined when it is not one. */
function boundaryOf(contentType) {
    if (contentType === undefined)
        return undefined;
    const { value, params } = parseHeaderValue(contentType);
    const boundary = params.boundary;
    if (value !== 'multipart/form-data' || boundary === undefined)
        return undefined;
    return boundary.length >= 1 && boundary.length <= 70 ? boundary : undefined;
}
function decodeExtValue(value) {
    // RFC 5987: charset'language'percent-encoded
    const m = /^([^']*)'[^']*'(.*)$/.exec(value);
    if (m === null)
        return undefined;
    try {
        return decodeURIComponent(m[2] ?? '');
    }
    catch {
        return undefined;
    }
}
function parsePartHeaders(block) {
    const headers = {};
    const text = block.toString('utf8');
    for (const line of text.split('\r\n')) {
        if (line === '')
            continue;
        const colon = line.indexOf(':');
        if (colon <= 0)
            throw new MultipartError(`Malformed part header line: ${JSON.stringify(line.slice(0, 100))}`);
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const result = { headers };
    const disposition = headers['content-disposition'];
    if (disposition !== undefined) {
        const { value, params } = parseHeaderValue(disposition);
        if (value === 'form-data') {
            if (params.name !== undefined)
                result.name = params.name;
            const extended = params['filename*'] === undefined ? undefined : decodeExtValue(params['filename*']);
            const filename = extended ?? params.filename;
            if (filename !== undefined)
                result.filename = filename;
        }
    }
    if (headers['content-type'] !== undefined)
        result.contentType = headers['content-type'];
    return result;
}
const CRLF = Buffer.from('\r\n');
const CRLFCRLF = Buffer.from('\r\n\r\n');
class MultipartParser {
    maxHeaderBytes;
    state = 'preamble';
    /** Bytes not yet consumed. Starts with CRLF so that a body that begins with the boundary matches the delimiter. */
    pending = Buffer.from(CRLF);
    delimiter;
    constructor(boundary, maxHeaderBytes = 16 * 1024) {
        this.maxHeaderBytes = maxHeaderBytes;
        this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    }
    get finished() {
        return this.state === 'epilogue';
    }
    /** Feeds the next chunk of the body; returns what it completed. `data` slices stay valid after later calls. */
    write(chunk) {
        const buf = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
        const events = [];
        let step = { pos: 0, more: true };
        while (step.more)
            step = this.step(buf, step.pos, events);
        this.pending = step.pos >= buf.length ? Buffer.alloc(0) : Buffer.from(buf.subarray(step.pos));
        return events;
    }
    /** One step of the state machine from `pos`: where it got to, and whether `buf` holds enough for another. */
    step(buf, pos, events) {
        switch (this.state) {
            case 'preamble':
                return this.preamble(buf, pos);
            case 'after-delimiter':
                return this.afterDelimiter(buf, pos, events);
            case 'headers':
                return this.partHeaders(buf, pos, events);
            case 'body':
                return this.partBody(buf, pos, events);
            case 'epilogue':
                return { pos: buf.length, more: false };
        }
    }
    /** Skips to the first delimiter (keeping the bytes that could be its start, split across chunks). */
    preamble(buf, pos) {
        const at = buf.indexOf(this.delimiter, pos);
        if (at < 0)
            return { pos: Math.max(pos, buf.length - (this.delimiter.length - 1)), more: false };
        this.state = 'after-delimiter';
        return { pos: at + this.delimiter.length, more: true };
    }
    /** After a delimiter: `--` closes the body (the rest is epilogue), else the boundary line's padding and CRLF. */
    afterDelimiter(buf, pos, events) {
        if (buf.length - pos < 2)
            return { pos, more: false };
        if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) {
            // close delimiter: everything after it is epilogue
            this.state = 'epilogue';
            events.push({ type: 'end' });
            return { pos: buf.length, more: false };
        }
        const eol = buf.indexOf(CRLF, pos);
        if (eol < 0) {
            if (buf.length - pos > 256)
                throw new MultipartError('Malformed boundary line');
            return { pos, more: false };
        }
        for (let i = pos; i < eol; i++) {
            if (buf[i] !== 0x20 && buf[i] !== 0x09)
                throw new MultipartError('Malformed boundary line');
        }
        this.state = 'headers';
        return { pos: eol, more: true }; // the CRLF ending the boundary line starts the header search
    }
    /** A part's header block, once all of it is in (at most maxHeaderBytes). */
    partHeaders(buf, pos, events) {
        const end = buf.indexOf(CRLFCRLF, pos);
        if (end < 0) {
            if (buf.length - pos > this.maxHeaderBytes)
                throw new MultipartError('Part headers are too large');
            return { pos, more: false };
        }
        const block = end > pos + 2 ? buf.subarray(pos + 2, end) : Buffer.alloc(0);
        events.push({ type: 'part', ...parsePartHeaders(block) });
        this.state = 'body';
        return { pos: end + 4, more: true };
    }
    /** A part's body up to the next delimiter, or as much of it as cannot be the start of one. */
    partBody(buf, pos, events) {
        const at = buf.indexOf(this.delimiter, pos);
        if (at >= 0) {
            if (at > pos)
                events.push({ type: 'data', data: buf.subarray(pos, at) });
            events.push({ type: 'part-end' });
            this.state = 'after-delimiter';
            return { pos: at + this.delimiter.length, more: true };
        }
        // Keep the bytes that could be the start of a delimiter split across chunks.
        const safe = buf.length - (this.delimiter.length - 1);
        if (safe <= pos)
            return { pos, more: false };
        events.push({ type: 'data', data: buf.subarray(pos, safe) });
        return { pos: safe, more: false };
    }
    /** Call at the end of the body: throws when the closing boundary was not seen. */
    end() {
        if (this.state !== 'epilogue') {
            throw new MultipartError(this.state === 'preamble' ? 'No multipart boundary found in the body' : 'The multipart body ended before its closing boundary');
        }
    }
}

;// CONCATENATED MODULE: ./src/emulator/tar-sniffer.ts
// Decides, while an upload streams in, whether it is a gzip-compressed tar archive: gzip magic bytes,
// then the first 512-byte block, once gunzipped, must be a tar header with a valid checksum.
// Only the start of the stream is decompressed; the rest is never looked at.

const BLOCK = 512;
/** Compressed bytes after which a file that still has not produced its first tar block is refused. */
const MAX_SNIFF_INPUT = 16 * 1024 * 1024;
// The emulator stands in for the server the action uploads to, so it keeps its own reading of the
// header checksum rather than sharing the action's tar code (a shared bug would pass unnoticed).
/** The checksum field (offset 148, 8 bytes): octal digits, padded with spaces or NULs; NaN when malformed. */
function storedChecksum(block) {
    const text = block.toString('latin1', 148, 156).replace(/\0.*$/s, '').trim();
    return /^[0-7]{1,7}$/.test(text) ? parseInt(text, 8) : Number.NaN;
}
/** True when `block` (512 bytes) is a tar header whose checksum field matches its bytes (unsigned or signed sum, as POSIX and old tars wrote it). */
function isTarHeader(block) {
    if (block.length < BLOCK)
        return false;
    const stored = storedChecksum(block);
    if (Number.isNaN(stored))
        return false;
    let unsigned = 0;
    let signed = 0;
    for (let i = 0; i < BLOCK; i++) {
        // The checksum field itself counts as eight spaces.
        const byte = i >= 148 && i < 156 ? 0x20 : block[i];
        unsigned += byte;
        signed += byte >= 0x80 ? byte - 0x100 : byte;
    }
    return stored === unsigned || stored === signed;
}
class GzipTarSniffer {
    gunzip;
    head = [];
    headBytes = 0;
    magic = Buffer.alloc(0);
    bytesIn = 0;
    verdict;
    settled;
    settle;
    constructor() {
        this.settled = new Promise((resolve) => (this.settle = resolve));
    }
    get decided() {
        return this.verdict !== undefined;
    }
    /** The verdict once known (it may be known long before the end of the file). */
    get result() {
        return this.verdict;
    }
    push(chunk) {
        if (this.verdict !== undefined || chunk.length === 0)
            return;
        if (this.magic.length < 2) {
            this.magic = Buffer.concat([this.magic, chunk.subarray(0, 2 - this.magic.length)]);
            if (this.magic.length === 2 && (this.magic[0] !== 0x1f || this.magic[1] !== 0x8b)) {
                return this.decide({ ok: false, reason: 'The file is not gzip-compressed (no gzip magic bytes)' });
            }
        }
        this.bytesIn += chunk.length;
        if (this.bytesIn > MAX_SNIFF_INPUT) {
            return this.decide({ ok: false, reason: 'The start of the gzip content does not decompress to a tar header' });
        }
        this.ensureGunzip().write(chunk);
    }
    /** Call once the whole file has been pushed; resolves with the verdict. */
    finish() {
        if (this.verdict === undefined) {
            if (this.gunzip === undefined)
                this.decide({ ok: false, reason: 'The file is empty or too short to be a gzip file' });
            else
                this.gunzip.end();
        }
        return this.settled;
    }
    /** Releases the decompressor without waiting for a verdict. */
    dispose() {
        if (this.verdict === undefined)
            this.decide({ ok: false, reason: 'aborted' });
    }
    ensureGunzip() {
        if (this.gunzip !== undefined)
            return this.gunzip;
        const gunzip = (0,external_node_zlib_namespaceObject.createGunzip)();
        gunzip.on('data', (out) => {
            if (this.verdict !== undefined)
                return;
            this.head.push(out);
            this.headBytes += out.length;
            if (this.headBytes >= BLOCK) {
                const block = Buffer.concat(this.head).subarray(0, BLOCK);
                this.decide(isTarHeader(block) ? { ok: true } : { ok: false, reason: 'The gzip content is not a tar archive (bad tar header checksum)' });
            }
        });
        gunzip.on('error', (err) => this.decide({ ok: false, reason: `The file is not valid gzip: ${err.message}` }));
        gunzip.on('end', () => this.decide({ ok: false, reason: 'The gzip content is too short to be a tar archive (less than 512 bytes)' }));
        this.gunzip = gunzip;
        return gunzip;
    }
    decide(result) {
        if (this.verdict !== undefined)
            return;
        this.verdict = result;
        this.head = [];
        if (this.gunzip !== undefined) {
            this.gunzip.removeAllListeners('data');
            this.gunzip.on('error', () => { }); // errors after the verdict do not matter
            this.gunzip.destroy();
        }
        this.settle(result);
    }
}

;// CONCATENATED MODULE: ./src/emulator/throttle.ts
// Paces a reader to a byte rate ("slow reads"): after each chunk, wait until the rate allows it.

class Throttle {
    bytesPerSecond;
    start = Date.now();
    bytes = 0;
    constructor(bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond;
    }
    async take(n) {
        this.bytes += n;
        const wait = this.start + (this.bytes / this.bytesPerSecond) * 1000 - Date.now();
        if (wait > 0)
            await (0,external_node_timers_promises_namespaceObject.setTimeout)(wait, undefined, { ref: false });
    }
}

;// CONCATENATED MODULE: ./src/emulator/upload.ts
// POST /v3/distributions: streams the multipart body, writes the `dist_file` part to disk while hashing it
// and checking that it is a gzip tar. Memory stays flat whatever the file size.










/** Room for the multipart framing and small extra parts on top of the file size limit. */
/** Ids of the 'numeric-id' upload answer: counted across emulators, so no two stacks of one test run share one. */
let nextNumericId = 1000;
const MULTIPART_OVERHEAD = 64 * 1024;
class Upload {
    state;
    parts = [];
    current;
    dist;
    failure;
    bodyBytes = 0;
    id;
    parser;
    constructor(state, boundary) {
        this.state = state;
        this.parser = new MultipartParser(boundary);
        // Digits only when the platform is set to answer numeric ids, so the stored string reads as a number.
        this.id = state.settings.uploadAnswer === 'numeric-id' ? String(nextNumericId++) : (0,external_node_crypto_namespaceObject.randomUUID)();
    }
    get max() {
        return this.state.settings.maxDistributionBytes;
    }
    fail(error) {
        this.failure ??= error;
        this.dist?.file?.sniffer.dispose();
        this.dist?.file?.stream?.destroy();
    }
    /** Feeds one chunk of the body. After a failure the rest of the body is read and discarded. */
    async write(chunk) {
        this.bodyBytes += chunk.length;
        if (this.failure !== undefined)
            return;
        if (this.bodyBytes > this.max + MULTIPART_OVERHEAD) {
            return this.fail(new HttpError(413, 'DistributionTooLarge', `A distribution may be at most ${this.max} bytes`));
        }
        let events;
        try {
            events = this.parser.write(chunk);
        }
        catch (err) {
            if (!(err instanceof MultipartError))
                throw err;
            return this.fail(new HttpError(400, 'InvalidMultipart', err.message));
        }
        for (const event of events) {
            await this.handle(event);
            if (this.failure !== undefined)
                return;
        }
    }
    async handle(event) {
        switch (event.type) {
            case 'part': {
                const record = { name: event.name ?? '', size: 0, sha256: '', md5: '' };
                if (event.filename !== undefined)
                    record.filename = event.filename;
                if (event.contentType !== undefined)
                    record.contentType = event.contentType;
                this.parts.push(record);
                const sink = { record, md5: (0,external_node_crypto_namespaceObject.createHash)('md5'), sha256: (0,external_node_crypto_namespaceObject.createHash)('sha256') };
                if (event.name === 'dist_file') {
                    if (this.dist !== undefined) {
                        return this.fail(new HttpError(400, 'InvalidRequest', 'Exactly one part named "dist_file" is allowed'));
                    }
                    if (event.filename === undefined || event.filename === '') {
                        return this.fail(new HttpError(400, 'InvalidRequest', 'The "dist_file" part must be a file (with a filename)'));
                    }
                    let stream;
                    if (this.state.settings.keepUploads) {
                        record.path = (0,external_node_path_namespaceObject.join)(this.state.settings.storageDir, `${this.id}.tar.gz`);
                        stream = (0,external_node_fs_namespaceObject.createWriteStream)(record.path, { flags: 'wx' });
                        stream.on('error', (err) => this.fail(new HttpError(500, 'StorageError', err.message)));
                    }
                    sink.file = { stream, sniffer: new GzipTarSniffer() };
                    this.dist = sink;
                }
                this.current = sink;
                return;
            }
            case 'data': {
                const sink = this.current;
                if (sink === undefined)
                    return;
                const { data } = event;
                sink.record.size += data.length;
                sink.md5.update(data);
                sink.sha256.update(data);
                if (sink.file === undefined)
                    return;
                if (sink.record.size > this.max) {
                    return this.fail(new HttpError(413, 'DistributionTooLarge', `A distribution may be at most ${this.max} bytes`));
                }
                const { sniffer, stream } = sink.file;
                sniffer.push(data);
                if (sniffer.result?.ok === false)
                    return this.fail(invalidDistribution(sniffer.result.reason));
                if (stream !== undefined && !stream.write(data))
                    await drained(stream);
                return;
            }
            case 'part-end': {
                const sink = this.current;
                if (sink === undefined)
                    return;
                sink.record.md5 = sink.md5.digest('hex');
                sink.record.sha256 = sink.sha256.digest('hex');
                this.current = undefined;
                return;
            }
            case 'end':
                return;
        }
    }
    /** Call once the body ended: validates and returns the stored distribution, or throws the failure. */
    async finish(user) {
        if (this.failure === undefined) {
            try {
                this.parser.end();
            }
            catch (err) {
                if (!(err instanceof MultipartError))
                    throw err;
                this.fail(new HttpError(400, 'InvalidMultipart', err.message));
            }
        }
        const dist = this.dist;
        if (this.failure === undefined && dist?.file === undefined) {
            this.fail(new HttpError(400, 'InvalidRequest', 'A file part named "dist_file" is required'));
        }
        if (this.failure !== undefined || dist?.file === undefined)
            return this.abort();
        const { stream, sniffer } = dist.file;
        if (stream !== undefined) {
            stream.end();
            await (0,external_node_events_namespaceObject.once)(stream, 'close').catch(() => undefined);
        }
        const sniff = await sniffer.finish();
        if (!sniff.ok)
            this.fail(invalidDistribution(sniff.reason));
        if (this.failure === undefined && this.state.distributions.length >= this.state.settings.maxDistributions) {
            this.fail(limitReached(this.state.settings.maxDistributions));
        }
        if (this.failure !== undefined)
            return this.abort();
        const now = platformNow(this.state);
        const stored = {
            id: this.id,
            name: dist.record.filename ?? 'distribution.tar.gz',
            createdAt: now,
            createdBy: user,
            modifiedAt: now,
            modifiedBy: user,
            md5hash: dist.record.md5,
            sha256: dist.record.sha256,
            size: dist.record.size
        };
        if (dist.record.path !== undefined)
            stored.path = dist.record.path;
        return stored;
    }
    /** Removes whatever was written and throws the failure (or 'aborted' when there is none). */
    async abort() {
        const failure = this.failure ?? new HttpError(400, 'UploadAborted', 'The upload was aborted');
        this.fail(failure);
        const path = this.dist?.record.path;
        if (path !== undefined) {
            // The file is opened asynchronously: remove it only once its stream is closed, or the open may land after the rm.
            const stream = this.dist?.file?.stream;
            if (stream !== undefined && !stream.closed)
                await (0,external_node_events_namespaceObject.once)(stream, 'close').catch(() => undefined);
            await (0,promises_namespaceObject.rm)(path, { force: true });
            delete this.dist?.record.path;
        }
        throw failure;
    }
}
/** Resolves on 'drain', or when the stream closed or failed (its 'error' listener records the failure). */
function drained(stream) {
    return new Promise((resolve) => {
        const done = () => {
            stream.off('drain', done);
            stream.off('close', done);
            resolve();
        };
        stream.on('drain', done);
        stream.on('close', done);
    });
}
function invalidDistribution(reason) {
    return new HttpError(400, 'InvalidDistribution', `${reason}; a distribution must be a .tar.gz file`);
}
function limitReached(max) {
    return new HttpError(409, 'DistributionLimitReached', `At most ${max} distributions can be stored; delete one first`);
}
function uploadHandler(state) {
    return async (ctx) => {
        const { req } = ctx;
        const user = authenticate(state, req);
        const contentType = req.headers['content-type'];
        const boundary = boundaryOf(contentType);
        if (boundary === undefined) {
            if (contentType !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) {
                throw new HttpError(400, 'InvalidMultipart', 'The multipart/form-data content type has no valid boundary');
            }
            throw new HttpError(415, 'UnsupportedMediaType', 'A distribution is uploaded as multipart/form-data');
        }
        const max = state.settings.maxDistributionBytes;
        const declared = Number(req.headers['content-length'] ?? '0');
        if (Number.isFinite(declared) && declared > max + MULTIPART_OVERHEAD) {
            throw new HttpError(413, 'DistributionTooLarge', `A distribution may be at most ${max} bytes`, {}, true);
        }
        if (state.distributions.length >= state.settings.maxDistributions)
            throw limitReached(state.settings.maxDistributions);
        const upload = new Upload(state, boundary);
        ctx.record.parts = upload.parts;
        const rate = state.settings.uploadBytesPerSecond;
        const throttle = rate !== undefined && rate > 0 ? new Throttle(rate) : undefined;
        try {
            // Never leave this loop early: that would destroy the socket before an answer could be sent.
            for await (const chunk of req) {
                if (throttle !== undefined)
                    await throttle.take(chunk.length);
                await upload.write(chunk);
            }
        }
        catch (err) {
            await upload.abort().catch(() => undefined);
            throw err;
        }
        const stored = await upload.finish(user);
        state.distributions.push(stored);
        const record = distributionJson(stored, state.settings.uploadAnswer === 'numeric-id', state.settings.md5Case, state.settings.idCase);
        const location = { location: `/v3/distributions/${stored.id}` };
        // Public clients accept 200 or 201 and read the record; the status and Location are the emulator's own.
        ctx.invent('status-201', 'location-header');
        switch (state.settings.uploadAnswer) {
            case 'no-id': {
                const { id: _id, ...withoutId } = record;
                ctx.send(201, withoutId, location);
                return;
            }
            case 'empty':
                ctx.send(201, undefined, location);
                return;
            default:
                ctx.send(201, record, location);
        }
    };
}

;// CONCATENATED MODULE: ./src/emulator/cloud-api.ts
// The Bloomreach Cloud deployment management API (`/v3/...`) as an emulator module.







const JSON_LIMIT = 64 * 1024;
/**
 * Reads a JSON object body (recorded on the request); 400 when malformed. A JSON body is accepted
 * whatever its content type: a public client posts login and refresh bodies with none and gets past
 * the real service (public-facts.md). The log says so.
 */
async function readJsonObject(ctx) {
    const body = await readBody(ctx.req, JSON_LIMIT);
    const parsed = body.length === 0 ? { ok: false } : parseJson(body);
    if (parsed.ok)
        ctx.record.json = parsed.value;
    const type = ctx.req.headers['content-type'];
    if (!isJsonContentType(type))
        ctx.record.note = `a JSON body sent ${type === undefined ? 'without a Content-Type' : `as ${type}`}, accepted`;
    if (!parsed.ok)
        throw new HttpError(400, 'InvalidRequest', 'The request body is not valid JSON');
    if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
        throw new HttpError(400, 'InvalidRequest', 'The request body must be a JSON object');
    }
    return parsed.value;
}
function requireString(body, field) {
    const value = body[field];
    if (typeof value !== 'string' || value === '') {
        throw new HttpError(400, 'InvalidRequest', `The field "${field}" is required and must be a non-empty string`);
    }
    return value;
}
function queryInt(ctx, name, fallback, min, max) {
    const raw = ctx.url.searchParams.get(name);
    if (raw === null)
        return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
        throw new HttpError(400, 'InvalidRequest', `The query parameter "${name}" must be an integer from ${min} to ${max}`);
    }
    return value;
}
function refreshTokenOf(body, grantRequired) {
    const grant = body.grant_type;
    if ((grantRequired || grant !== undefined) && grant !== 'refresh_token') {
        throw new HttpError(400, 'InvalidGrantType', 'The field "grant_type" must be "refresh_token"');
    }
    return requireString(body, 'refresh_token');
}
/**
 * On an SSO stack the password login and its refresh endpoints are disabled; what they answer is not
 * public, so it is a mode. The body is read (and recorded) first, as any other call's.
 */
async function refuseWhenSso(ctx, settings) {
    if (settings.passwordLogin === 'enabled')
        return;
    ctx.invent('sso-password-login');
    const parsed = parseJson(await readBody(ctx.req, JSON_LIMIT));
    if (parsed.ok)
        ctx.record.json = parsed.value;
    if (settings.passwordLogin === '401')
        throw new HttpError(401, 'AuthenticationFailed', 'Invalid username or password');
    if (settings.passwordLogin === '404')
        throw new HttpError(404, 'NotFound', `No operation at "${ctx.url.pathname}"`);
    throw new HttpError(403, 'SsoEnabled', 'Password login is disabled: this stack uses single sign-on');
}
/** An environment's fields no public source shows: the emulator's status, and strategy/deployedAt. */
function inventEnvironmentFields(ctx, state) {
    if (state.settings.environmentStatus)
        ctx.invent('field-status');
    ctx.invent('field-strategy', 'field-deployedAt');
}
function distributionOr404(state, id) {
    const found = findDistribution(state, id);
    if (found === undefined)
        throw new HttpError(404, 'DistributionNotFound', `No distribution with id "${id}"`);
    return found;
}
/** The deploy call's optional `appConfigFileRoles`: each entry names a known file with the role "systemproperty". */
function appConfigFileRolesOf(state, roles) {
    if (roles === undefined)
        return [];
    if (!Array.isArray(roles))
        throw new HttpError(400, 'InvalidRequest', 'The field "appConfigFileRoles" must be an array');
    return roles.map((entry, i) => {
        const field = `appConfigFileRoles[${i}]`;
        if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
            throw new HttpError(400, 'InvalidRequest', `${field} must be an object {appConfigFileId, role}`);
        }
        const { appConfigFileId, role } = entry;
        if (typeof appConfigFileId !== 'string' || appConfigFileId === '' || typeof role !== 'string' || role === '') {
            throw new HttpError(400, 'InvalidRequest', `${field} needs the non-empty strings "appConfigFileId" and "role"`);
        }
        if (!state.appConfigFiles.some((f) => f.id === appConfigFileId)) {
            throw new HttpError(400, 'AppConfigFileNotFound', `${field}: no application configuration file with id "${appConfigFileId}"`);
        }
        if (role !== 'systemproperty')
            throw new HttpError(400, 'InvalidAppConfigFileRole', `${field}: the role must be "systemproperty", got "${role}"`);
        return { appConfigFileId, role };
    });
}
/**
/**
 * Abandons the switch an environment is making, if any: its timer cleared, taken out of `state.landings`,
 * its deployment marked `abandonedAt` and never applied. Returns that deployment.
 */
function abandonSwitch(state, env) {
    const landing = state.landings.get(env);
    if (landing === undefined)
        return undefined;
    landing.cancel();
    landing.deployment.abandonedAt = platformNow(state);
    return landing.deployment;
}
/**
 * Whether a deploy to `env` is refused now: while it switches, unless the platform is read as accepting
 * one meanwhile (`deployWhileBusy: 'accept'`; how the platform treats it is not public).
 */
function refusesDeployWhileBusy(state, env) {
    return env.status === 'deploying' && state.settings.deployWhileBusy === 'refuse';
}
/**
 * Records the deployment and switches the environment to it: at once with no deploy time, else once
 * `seconds` have passed (a timer that does not keep the process alive; close() cancels it) and `looks`
 * looks at the environment have reported the switch in progress, whichever comes last, or when a test
 * lands it (finishDeploy). Looks make "seen in progress" certain however slow the client is. When the
 * new id is reported at request, the API shows it at once while the site keeps serving the old release
 * until the switch. A switch still in progress on the environment is abandoned for this one (the callers
 * decide whether a deploy while busy is accepted at all: `refusesDeployWhileBusy`).
 */
function startDeploy(state, env, deployment, time = {}) {
    const { seconds = state.settings.deploySeconds, looks = state.settings.deployLooks } = typeof time === 'number' ? { seconds: time, looks: 0 } : time;
    abandonSwitch(state, env);
    env.deployments.push(deployment);
    const apply = () => {
        env.distributionId = deployment.distributionId;
        env.serving = deployment.distributionId;
        env.status = 'running';
        deployment.appliedAt = platformNow(state);
    };
    if (seconds <= 0 && looks <= 0)
        return apply();
    env.status = 'deploying';
    if (state.settings.deployReport === 'at-request')
        env.distributionId = deployment.distributionId;
    let timer;
    const landing = {
        timeUp: seconds <= 0,
        looksLeft: Math.max(0, looks),
        deployment,
        cancel() {
            if (timer !== undefined) {
                clearTimeout(timer);
                state.switches.delete(timer);
            }
            if (state.landings.get(env) === landing)
                state.landings.delete(env);
        },
        land() {
            landing.cancel();
            apply();
        }
    };
    state.landings.set(env, landing);
    if (landing.timeUp || !Number.isFinite(seconds))
        return;
    timer = setTimeout(() => {
        state.switches.delete(timer);
        timer = undefined;
        landing.timeUp = true;
        if (landing.looksLeft <= 0)
            landing.land();
    }, seconds * 1000);
    timer.unref();
    state.switches.add(timer);
}
/** A look at these environments was answered: a switch that waited for it may land now (after the answer was made). */
function looked(state, environments) {
    for (const env of environments) {
        const landing = state.landings.get(env);
        if (landing === undefined || landing.looksLeft <= 0)
            continue;
        landing.looksLeft -= 1;
        if (landing.looksLeft === 0 && landing.timeUp)
            landing.land();
    }
}
/**
 * Deletes a stored distribution: 404 when unknown, 409 while an environment runs, serves or switches to
 * it, unless `deleteInUse` is 'allow' (then the environment keeps naming an id that is gone).
 */
async function deleteDistribution(state, id) {
    const dist = distributionOr404(state, id);
    const inUse = state.environments.find((e) => e.distributionId === dist.id || e.serving === dist.id || (e.status === 'deploying' && e.deployments.at(-1)?.distributionId === dist.id));
    if (inUse !== undefined && state.settings.deleteInUse === 'refuse') {
        throw new HttpError(409, 'DistributionInUse', `The distribution is deployed to environment "${inUse.name}"`);
    }
    state.distributions.splice(state.distributions.indexOf(dist), 1);
    if (dist.path !== undefined)
        await (0,promises_namespaceObject.rm)(dist.path, { force: true });
}
/** GET /v3/environments: one page of them, or with ?name= that one environment (a look at each: a switch may land). */
function listEnvironments(state, ctx) {
    authenticate(state, ctx.req);
    const name = ctx.url.searchParams.get('name');
    if (name !== null) {
        const env = state.environments.find((e) => e.name === name);
        if (env === undefined && state.settings.unknownEnvironmentByName === 'no-id')
            return ctx.send(200, {});
        if (env === undefined)
            throw new HttpError(404, 'EnvironmentNotFound', `No environment named "${name}"`);
        inventEnvironmentFields(ctx, state);
        ctx.send(200, environmentJson(env, state.settings.environmentStatus, state.settings, 'environment-by-name'));
        looked(state, [env]);
        return;
    }
    const { environmentPageSize, environmentOffsetIgnored } = state.settings;
    const offset = environmentOffsetIgnored ? 0 : queryInt(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const max = Math.min(queryInt(ctx, 'max', 100, 1, 1000), environmentPageSize);
    const page = state.environments.slice(offset, offset + max);
    const items = page.map((e) => environmentJson(e, state.settings.environmentStatus, state.settings, 'environment-list'));
    const total = state.environments.length;
    // The public list shows {items, more, total, count}: offset and max are the emulator's own.
    ctx.invent('field-offset', 'field-max');
    if (items.length > 0)
        inventEnvironmentFields(ctx, state);
    ctx.send(200, { offset, max, items, more: offset + items.length < total, total, count: items.length });
    looked(state, page);
}
/** PUT /v3/environments/{id}/deploy: the deployment recorded and the switch started; 202 with the environment at once. */
async function deploy(state, ctx) {
    const user = authenticate(state, ctx.req);
    const id = ctx.params.id ?? '';
    const env = state.environments.find((e) => e.id === id);
    if (env === undefined)
        throw new HttpError(404, 'EnvironmentNotFound', `No environment with id "${id}"`);
    const body = await readJsonObject(ctx);
    const named = requireString(body, 'distributionId');
    const strategy = requireString(body, 'strategy');
    const appConfigFileRoles = appConfigFileRolesOf(state, body.appConfigFileRoles);
    // The history keeps the stored id, whatever case the client sent it in.
    const distributionId = findDistribution(state, named)?.id;
    if (distributionId === undefined)
        throw new HttpError(400, 'DistributionNotFound', `No distribution with id "${named}"`);
    // How the platform treats a second deploy to an environment that is still switching is not
    // public; by default the emulator refuses it, so a client that follows its deploys can be tested,
    // and with deployWhileBusy 'accept' the new deploy replaces the switch in progress (startDeploy).
    if (refusesDeployWhileBusy(state, env)) {
        throw new HttpError(409, 'DeploymentInProgress', `Environment "${env.name}" is still deploying; wait until it reports its new distributionId`);
    }
    startDeploy(state, env, { distributionId, strategy, appConfigFileRoles, requestedAt: platformNow(state), appliedAt: null, by: user });
    // The answer's status and body are not public (public clients accept any 2xx and read nothing).
    ctx.invent('status-202', 'deploy-body');
    ctx.send(202, environmentJson(env, state.settings.environmentStatus, state.settings, 'environment-deployed'));
}
function cloudApi(state, documented = []) {
    return { name: 'cloud-deployment-api', routes: cloudRoutes(state, new Map(), documented) };
}
/** The cloud API's endpoints; its docs page lists them with `documented`, the other modules' cloud paths. */
// eslint-disable-next-line max-lines-per-function -- a route table: one entry per endpoint (method, path, operation, summary, handler), read top to bottom as the API reference lists them and as the docs page shows them; split, the endpoints would be scattered
function cloudRoutes(state, downloads, documented) {
    const routes = [
        {
            method: 'POST',
            path: '/v3/authn/access_token',
            operation: 'login',
            summary: 'Log in with JSON {username, password}; answers {token_type, access_token, refresh_token}',
            handler: async (ctx) => {
                await refuseWhenSso(ctx, state.settings);
                const body = await readJsonObject(ctx);
                const username = requireString(body, 'username');
                const password = requireString(body, 'password');
                if (username !== state.settings.username || password !== state.settings.password) {
                    throw new HttpError(401, 'AuthenticationFailed', 'Invalid username or password');
                }
                ctx.send(200, {
                    token_type: 'bearer',
                    access_token: state.tokens.issue('access', username),
                    refresh_token: state.tokens.issue('refresh', username)
                });
            }
        },
        {
            method: 'POST',
            path: '/v3/authn/refresh_token',
            operation: 'refresh',
            summary: 'New access token from JSON {grant_type: "refresh_token", refresh_token}; no new refresh token',
            handler: async (ctx) => {
                await refuseWhenSso(ctx, state.settings);
                const check = state.tokens.check('refresh', refreshTokenOf(await readJsonObject(ctx), true));
                if (!check.ok)
                    throw new HttpError(401, 'Unauthorized', check.detail);
                ctx.send(200, { token_type: 'bearer', access_token: state.tokens.issue('access', check.sub) });
            }
        },
        {
            method: 'DELETE',
            path: '/v3/authn/refresh_token',
            operation: 'revoke-refresh',
            summary: 'Revoke the refresh token given in the same JSON body',
            handler: async (ctx) => {
                await refuseWhenSso(ctx, state.settings);
                const check = state.tokens.check('refresh', refreshTokenOf(await readJsonObject(ctx), false));
                if (!check.ok)
                    throw new HttpError(401, 'Unauthorized', check.detail);
                state.tokens.revoke('refresh', check.jti);
                // The API reference shows 200 (no body is shown).
                ctx.send(200);
            }
        },
        {
            method: 'GET',
            path: '/v3/authn/verify_token',
            operation: 'verify',
            summary: 'Answers 200 while the bearer access token is valid (headers X-User-Id, X-User-Role), 401 otherwise',
            handler: (ctx) => {
                const user = authenticate(state, ctx.req);
                // The API reference shows 200 with the two headers; the body and the role's values are not public.
                ctx.invent('verify-body', 'user-role-value');
                ctx.send(200, { username: user, valid: true }, { 'x-user-id': user, 'x-user-role': 'deployer' });
            }
        },
        {
            method: 'POST',
            path: '/v3/authn/logout',
            operation: 'logout',
            summary: 'Invalidates ALL access tokens of the user (in every job using the account)',
            handler: (ctx) => {
                state.access.revokeAll(authenticate(state, ctx.req));
                // The API reference shows 200 (no body is shown).
                ctx.send(200);
            }
        },
        {
            method: 'GET',
            path: '/v3/distributions',
            operation: 'list-distributions',
            summary: 'Lists distributions: {offset, max, count, more, total, items}; query offset, max',
            handler: (ctx) => {
                authenticate(state, ctx.req);
                const offset = queryInt(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
                const max = queryInt(ctx, 'max', 100, 1, 1000);
                // A page holds up to 100 by default; a test's cap makes it hold fewer, and `max` says so (it tells the truth).
                const size = Math.min(max, state.settings.distributionPageSize);
                const numeric = state.settings.uploadAnswer === 'numeric-id';
                const items = state.distributions.slice(offset, offset + size).map((d) => distributionJson(d, numeric, state.settings.md5Case, state.settings.idCase));
                const total = state.distributions.length;
                ctx.send(200, { offset, max: size, count: items.length, more: offset + items.length < total, total, items });
            }
        },
        {
            method: 'POST',
            path: '/v3/distributions',
            operation: 'upload',
            summary: 'Uploads a distribution (.tar.gz) as multipart/form-data part "dist_file"; answers 201 with its record',
            handler: uploadHandler(state)
        },
        {
            method: 'GET',
            path: '/v3/distributions/{id}',
            operation: 'get-distribution',
            summary: 'One distribution record',
            handler: (ctx) => {
                authenticate(state, ctx.req);
                ctx.send(200, distributionJson(distributionOr404(state, ctx.params.id ?? ''), false, state.settings.md5Case, state.settings.idCase));
            }
        },
        {
            method: 'POST',
            path: '/v3/distributions/{id}/download-token',
            operation: 'download-token',
            summary: 'A one-time token to download the distribution: {token} (seen in a public backup tool)',
            handler: (ctx) => {
                authenticate(state, ctx.req);
                const dist = distributionOr404(state, ctx.params.id ?? '');
                const token = (0,external_node_crypto_namespaceObject.randomUUID)();
                downloads.set(token, dist.id);
                ctx.send(200, { token });
            }
        },
        {
            method: 'GET',
            path: '/v3/distributions/download/{token}',
            operation: 'download',
            summary: 'The distribution file for a download token (no bearer header: the token is the credential; used once)',
            handler: async (ctx) => {
                const id = downloads.get(ctx.params.token ?? '');
                if (id === undefined)
                    throw new HttpError(404, 'DownloadTokenNotFound', 'Unknown or used download token');
                downloads.delete(ctx.params.token ?? '');
                const dist = distributionOr404(state, id);
                if (dist.path === undefined)
                    throw new HttpError(404, 'DistributionNotKept', 'The emulator keeps no upload contents (--no-keep-uploads)');
                await ctx.sendStream(200, { 'content-type': 'application/gzip', 'content-disposition': `attachment; filename="${dist.name}"` }, dist.size, (0,external_node_fs_namespaceObject.createReadStream)(dist.path));
            }
        },
        {
            method: 'DELETE',
            path: '/v3/distributions/{id}',
            operation: 'delete-distribution',
            summary: 'Deletes a distribution (409 while an environment runs it or is deploying it, unless deleteInUse is allow)',
            handler: async (ctx) => {
                authenticate(state, ctx.req);
                await deleteDistribution(state, ctx.params.id ?? '');
                ctx.invent('status-204');
                ctx.send(204);
            }
        },
        {
            method: 'GET',
            path: '/v3/environments',
            operation: 'list-environments',
            summary: "Lists environments: {items: [{id, name, distributionId, status, strategy, deployedAt}], more, total, count}; query offset, max; ?name= answers that one environment. distributionId is what runs (the old one while deploying); status ('empty', 'deploying', 'running') is the emulator's own field",
            handler: (ctx) => listEnvironments(state, ctx)
        },
        {
            method: 'PUT',
            path: '/v3/environments/{id}/deploy',
            operation: 'deploy',
            summary: 'Deploys JSON {distributionId, strategy, appConfigFileRoles?: [{appConfigFileId, role: "systemproperty"}]}; answers 202 with the environment at once, which switches after the deploy time (409 DeploymentInProgress meanwhile, or with deployWhileBusy accept a new deploy replaces the switch in progress)',
            handler: (ctx) => deploy(state, ctx)
        },
        {
            method: 'GET',
            path: '/v3/appconfigfiles',
            operation: 'list-appconfigfiles',
            summary: "Lists the stack's application configuration files: [{id, name}] (the emulator's appConfigFiles option)",
            handler: (ctx) => {
                authenticate(state, ctx.req);
                ctx.send(200, state.appConfigFiles.map((f) => ({ id: f.id, name: f.name })));
            }
        },
        {
            method: 'GET',
            path: '/v3/docs',
            operation: 'docs',
            summary: 'This page',
            handler: (ctx) => ctx.sendText(200, 'text/html; charset=utf-8', docsPage([...routes, ...documented]))
        }
    ];
    return routes;
}

;// CONCATENATED MODULE: ./src/emulator/faults.ts
// Queue of injected faults: each one applies to the first `times` calls of its operation (after
// letting the first `skip` through, when set). The faults that let a call be carried out and then
// change its answer ('apply-then-status', 'apply-then-delay') replace the request's send paths.

class FaultQueue {
    faults = [];
    /** Answers held back by 'apply-then-delay', each with what releases its wait; close() cancels them. */
    held = new Map();
    constructor(initial = []) {
        for (const f of initial)
            this.add(f);
    }
    add(fault) {
        if ((fault.kind === 'status' || fault.kind === 'apply-then-status') && (fault.status === undefined || fault.status < 100 || fault.status > 599)) {
            throw new RangeError(`A '${fault.kind}' fault needs a status between 100 and 599 (operation ${fault.operation})`);
        }
        if (fault.kind === 'apply-then-delay' && (fault.delayMs === undefined || !Number.isFinite(fault.delayMs) || fault.delayMs < 0)) {
            throw new RangeError(`An 'apply-then-delay' fault needs a delayMs >= 0 (operation ${fault.operation})`);
        }
        this.faults.push({ ...fault });
    }
    /** Returns the first pending fault for `operation` and uses up one of its calls. */
    take(operation) {
        const fault = this.faults.find((f) => f.operation === operation && f.times > 0);
        if (fault === undefined)
            return undefined;
        if (fault.skip !== undefined && fault.skip > 0) {
            fault.skip -= 1;
            return undefined;
        }
        fault.times -= 1;
        return { ...fault };
    }
    /** 'apply-then-status': the call runs in full, then whatever it answers becomes `status` with the usual error body. */
    answerStatusAfterApply(ctx, fault) {
        answerStatus(ctx, fault);
    }
    /** 'apply-then-delay': the call runs in full, its answer is sent `delayMs` late (unless the client left, or close() came first). */
    answerLateAfterApply(ctx, fault) {
        answerLate(ctx, fault.delayMs ?? 0, (ms) => this.hold(ms));
    }
    /** Ends every wait at once, with nothing sent (close(): the connections are going). */
    cancelHeld() {
        for (const [timer, resume] of this.held) {
            clearTimeout(timer);
            resume(false);
        }
        this.held.clear();
    }
    /** Resolves true after `ms`, false when cancelled first; the timer never keeps the process alive. */
    hold(ms) {
        return new Promise((resume) => {
            const timer = setTimeout(() => {
                this.held.delete(timer);
                resume(true);
            }, ms);
            timer.unref();
            this.held.set(timer, resume);
        });
    }
}
/** A stream handed to sendStream but never sent: close what it opened (a file), if it can say so. */
function discard(body) {
    const closable = body;
    if (typeof closable.destroy === 'function')
        closable.destroy();
    else if (typeof closable.return === 'function')
        void closable.return();
}
/** Every answer of the call becomes `status` with its service's error body, whatever the handler did (a deploy done, answered 500). */
function answerStatus(ctx, fault) {
    const send = ctx.send.bind(ctx);
    const status = fault.status ?? 500;
    const detail = `Emulated fault after apply on ${fault.operation}`;
    // The search service's paths answer in its own error shape.
    const answer = () => send(status, fault.operation === 'search' ? { status_code: status, message: detail } : errorBody(codeForStatus(status), detail));
    ctx.send = answer;
    ctx.sendText = answer;
    ctx.sendStream = (_status, _headers, _length, body) => {
        discard(body);
        answer();
        return Promise.resolve();
    };
}
/** Holds every answer of the call back `ms`; sends nothing when the client left or the wait was cancelled. */
function answerLate(ctx, ms, hold) {
    const { send, sendText, sendStream } = { send: ctx.send.bind(ctx), sendText: ctx.sendText.bind(ctx), sendStream: ctx.sendStream.bind(ctx) };
    let gone = false;
    ctx.res.once('close', () => (gone = true));
    const later = async () => (await hold(ms)) && !gone;
    ctx.send = (...args) => void later().then((ok) => ok && send(...args));
    ctx.sendText = (...args) => void later().then((ok) => ok && sendText(...args));
    ctx.sendStream = async (status, headers, length, body) => {
        if (await later())
            await sendStream(status, headers, length, body);
        else
            discard(body);
    };
}

;// CONCATENATED MODULE: ./src/emulator/router.ts
function matchSegments(pattern, actual) {
    const last = pattern[pattern.length - 1] ?? '';
    if (last.startsWith('{') && last.endsWith('+}')) {
        if (actual.length < pattern.length)
            return undefined;
        const params = matchSegments(pattern.slice(0, -1), actual.slice(0, pattern.length - 1));
        if (params === undefined)
            return undefined;
        try {
            params[last.slice(1, -2)] = actual
                .slice(pattern.length - 1)
                .map((a) => decodeURIComponent(a))
                .join('/');
        }
        catch {
            return undefined;
        }
        return params;
    }
    if (pattern.length !== actual.length)
        return undefined;
    const params = {};
    for (let i = 0; i < pattern.length; i++) {
        const p = pattern[i] ?? '';
        const a = actual[i] ?? '';
        if (p.startsWith('{') && p.endsWith('}')) {
            if (a === '')
                return undefined;
            try {
                params[p.slice(1, -1)] = decodeURIComponent(a);
            }
            catch {
                return undefined;
            }
        }
        else if (p !== a) {
            return undefined;
        }
    }
    return params;
}
class Router {
    modules;
    entries;
    constructor(modules) {
        this.modules = modules;
        this.entries = modules.flatMap((m) => m.routes.map((route) => ({ route, segments: route.path.split('/') })));
    }
    match(method, pathname) {
        const actual = pathname.split('/');
        const allow = [];
        for (const { route, segments } of this.entries) {
            const params = matchSegments(segments, actual);
            if (params === undefined)
                continue;
            if (route.method === method)
                return { kind: 'route', route, params };
            allow.push(route.method);
        }
        if (allow.length > 0)
            return { kind: 'method-not-allowed', allow };
        if (pathname.length > 1 && pathname.endsWith('/'))
            return { kind: 'trailing-slash' };
        return { kind: 'not-found' };
    }
}

;// CONCATENATED MODULE: ./src/emulator/byte-reader.ts
// Pulls exact byte counts out of a stream of chunks: the tar index reads headers with it, the zip
// reader a local file header followed by its data.
class ByteReader {
    source;
    chunks = [];
    buffered = 0;
    /** Bytes consumed so far. */
    position = 0;
    constructor(source) {
        this.source = source;
    }
    async fill(n) {
        while (this.buffered < n) {
            const next = await this.source.next();
            if (next.done === true)
                return false;
            this.chunks.push(next.value);
            this.buffered += next.value.length;
        }
        return true;
    }
    /** Exactly `n` bytes, or undefined when the stream ends first. */
    async read(n) {
        if (!(await this.fill(n)))
            return undefined;
        const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
        const rest = all.subarray(n);
        this.chunks = rest.length > 0 ? [rest] : [];
        this.buffered = rest.length;
        this.position += n;
        return all.subarray(0, n);
    }
    /** Yields the next `n` bytes as they come, without holding them all; throws when the stream ends first. */
    async *take(n) {
        let left = n;
        while (left > 0) {
            if (this.buffered === 0 && !(await this.fill(1)))
                throw new Error('The archive ends inside an entry');
            const chunk = this.chunks.shift();
            const part = chunk.subarray(0, left);
            if (chunk.length > left)
                this.chunks.unshift(chunk.subarray(left));
            this.buffered -= part.length;
            this.position += part.length;
            left -= part.length;
            yield part;
        }
    }
    async skip(n) {
        for await (const _ of this.take(n)) {
            // discarded
        }
    }
}

;// CONCATENATED MODULE: ./src/emulator/tar-index.ts
// Reads the entries of a stored distribution (a .tar.gz on disk) for the emulated sites: names, types
// and where each file's bytes sit in the gunzipped stream. The emulator's own reading of tar headers
// (ustar names with prefix, GNU long names 'L'/'K', PAX 'path'/'linkpath'/'size' records), kept apart
// from the action's tar code like the rest of the emulator.





const tar_index_BLOCK = 512;
/** Opens the gunzipped stream of a file; `close` releases it when the caller stops early. */
function openGunzipped(path) {
    const file = (0,external_node_fs_namespaceObject.createReadStream)(path);
    const gunzip = (0,external_node_zlib_namespaceObject.createGunzip)();
    file.on('error', (err) => gunzip.destroy(err));
    file.pipe(gunzip);
    const reader = new ByteReader(gunzip[Symbol.asyncIterator]());
    return {
        reader,
        close: () => {
            file.destroy();
            gunzip.destroy();
        }
    };
}
/** A NUL-terminated text field. */
function tar_index_text(block, start, length) {
    const raw = block.subarray(start, start + length);
    const end = raw.indexOf(0);
    return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}
/** A numeric field: octal digits (space/NUL padded), or GNU base-256 when the first byte has its high bit set. */
function number(block, start, length) {
    const first = block[start];
    if ((first & 0x80) !== 0) {
        let value = first & 0x7f;
        for (let i = start + 1; i < start + length; i++)
            value = value * 256 + block[i];
        return value;
    }
    const digits = block
        .toString('latin1', start, start + length)
        .replace(/\0.*$/s, '')
        .trim();
    if (!/^[0-7]*$/.test(digits))
        throw new Error(`Malformed number field in a tar header: "${digits}"`);
    return digits === '' ? 0 : parseInt(digits, 8);
}
/** PAX records, `"<length> <key>=<value>\n"`, where length counts the whole record in bytes. */
function paxRecords(data) {
    const out = new Map();
    let pos = 0;
    while (pos < data.length) {
        const space = data.indexOf(0x20, pos);
        if (space === -1)
            break;
        const length = Number(data.toString('latin1', pos, space));
        if (!Number.isInteger(length) || length <= space - pos + 1 || pos + length > data.length)
            break;
        const record = data.toString('utf8', space + 1, pos + length - 1);
        const eq = record.indexOf('=');
        if (eq > 0)
            out.set(record.slice(0, eq), record.slice(eq + 1));
        pos += length;
    }
    return out;
}
/** `./a/b/`, `/a/b` and `a/b` all name `a/b`; the archive's root (`./`) is ''. */
function normalizeName(name) {
    let n = name;
    for (;;) {
        const next = n.replace(/^\.\/+/, '').replace(/^\/+/, '');
        if (next === n)
            break;
        n = next;
    }
    if (n === '.')
        return '';
    return n.replace(/\/+$/, '');
}
const padded = (size) => Math.ceil(size / tar_index_BLOCK) * tar_index_BLOCK;
function typeOf(flag) {
    switch (flag) {
        case '0':
        case '\0':
        case '7': // contiguous file: a regular file to everyone but a few old systems
            return 'file';
        case '1':
            return 'hardlink';
        case '2':
            return 'symlink';
        case '5':
            return 'directory';
        default:
            return 'other';
    }
}
/** Reads every header of the archive (file data is skipped, never held). */
async function readTarIndex(path) {
    const { reader, close } = openGunzipped(path);
    const index = new Map();
    try {
        // Set by 'L', 'K' and 'x' entries for the entry that follows them.
        let longName;
        let longLink;
        let pax = new Map();
        for (;;) {
            const at = reader.position;
            const block = await reader.read(tar_index_BLOCK);
            if (block === undefined || block.every((b) => b === 0))
                break; // end of archive (GNU tar writes two zero blocks)
            if (!isTarHeader(block))
                throw new Error(`No valid tar header at byte ${at} of the gunzipped archive`);
            const flag = String.fromCharCode(block[156]);
            const headerSize = number(block, 124, 12);
            if (flag === 'L' || flag === 'K' || flag === 'x' || flag === 'g') {
                const data = await reader.read(headerSize);
                if (data === undefined)
                    throw new Error('The archive ends inside an extended header');
                await reader.skip(padded(headerSize) - headerSize);
                if (flag === 'L')
                    longName = tar_index_text(data, 0, data.length);
                else if (flag === 'K')
                    longLink = tar_index_text(data, 0, data.length);
                else if (flag === 'x')
                    pax = paxRecords(data);
                continue; // a global header ('g') names no entry: nothing of it applies here
            }
            const type = typeOf(flag);
            let name = tar_index_text(block, 0, 100);
            // POSIX ustar ("ustar\0" + "00") keeps a prefix; old GNU ("ustar  \0") uses those bytes for times.
            if (block.toString('latin1', 257, 263) === 'ustar\0') {
                const prefix = tar_index_text(block, 345, 155);
                if (prefix !== '')
                    name = `${prefix}/${name}`;
            }
            name = pax.get('path') ?? longName ?? name;
            const linkname = pax.get('linkpath') ?? longLink ?? tar_index_text(block, 157, 100);
            const paxSize = pax.get('size');
            const size = paxSize !== undefined && /^\d+$/.test(paxSize) ? Number(paxSize) : headerSize;
            longName = undefined;
            longLink = undefined;
            pax = new Map();
            // Links, devices, fifos and directories carry no data whatever their size field says.
            const dataSize = flag >= '1' && flag <= '6' ? 0 : size;
            const entry = { name: normalizeName(name), type, offset: reader.position, size: dataSize, linkname };
            if (entry.name !== '')
                index.set(entry.name, entry);
            await reader.skip(padded(dataSize));
        }
    }
    finally {
        close();
    }
    return index;
}
/** The regular file `name` refers to, following hard links and symlinks (inside the archive) a few levels deep. */
function findFile(index, name, depth = 0) {
    const entry = index.get(normalizeName(name));
    if (entry === undefined || depth > 8)
        return undefined;
    if (entry.type === 'file')
        return entry;
    if (entry.type === 'hardlink')
        return findFile(index, entry.linkname, depth + 1);
    if (entry.type === 'symlink') {
        const target = entry.linkname.startsWith('/') ? entry.linkname : external_node_path_namespaceObject.posix.join(external_node_path_namespaceObject.posix.dirname(entry.name), entry.linkname);
        const normal = external_node_path_namespaceObject.posix.normalize(target);
        if (normal.startsWith('../') || normal === '..')
            return undefined; // points outside the distribution
        return findFile(index, normal, depth + 1);
    }
    return undefined;
}
/** The bytes of one entry, streamed from the stored archive. */
function readEntry(path, entry) {
    return readEntryPart(path, entry, 0, entry.size);
}
/** `length` bytes of one entry from `start` (a zip inside the archive is read in parts: its end, then an entry). */
async function* readEntryPart(path, entry, start, length) {
    if (start < 0 || length < 0 || start + length > entry.size)
        throw new Error(`Bytes ${start}+${length} lie outside "${entry.name}" (${entry.size} bytes)`);
    const { reader, close } = openGunzipped(path);
    try {
        await reader.skip(entry.offset + start);
        yield* reader.take(length);
    }
    finally {
        close();
    }
}

;// CONCATENATED MODULE: external "node:stream"
const external_node_stream_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");
;// CONCATENATED MODULE: ./src/emulator/zip-reader.ts
// The emulator's reading of a zip archive (a .war is one), for the site webapp of a distribution: the
// end of central directory record, the central directory, then one entry's local header and data,
// stored or deflated (node:zlib), checked against its size and CRC-32. Written from PKWARE's APPNOTE.
// What a brXM build does not write is refused by name: ZIP64, encryption, archives split over disks.




/** A zip the emulator cannot read, with the reason. */
class ZipError extends Error {
    name = 'ZipError';
}
const END_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const END_SIZE = 22;
const ZIP64_LOCATOR_SIZE = 20;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED_FLAG = 0x1;
const ZIP64_REFUSED = "a ZIP64 archive, which the emulator's zip reader does not read";
/** Reads the central directory: every entry's name, sizes and where its data is. */
async function readZipIndex(source) {
    const directory = await readEndRecord(source);
    const bytes = await readBytes(source, directory.offset, directory.size);
    return parseCentralDirectory(bytes, directory);
}
/** The file (not directory) entry `name` names, if any. */
function findZipFile(index, name) {
    const entry = index.get(normalizeName(name));
    return entry !== undefined && !entry.directory ? entry : undefined;
}
/** Why the emulator cannot read an entry's data, or undefined when it can. */
function whyUnreadable(entry) {
    if ((entry.flags & ENCRYPTED_FLAG) !== 0)
        return `"${entry.name}" is encrypted`;
    if (entry.method !== STORED && entry.method !== DEFLATED) {
        return `"${entry.name}" uses compression method ${entry.method}; the emulator reads stored (0) and deflated (8) entries`;
    }
    return undefined;
}
/** The uncompressed bytes of one entry, streamed; throws, before its last bytes, when they are not what the directory says. */
async function* readZipEntry(source, entry) {
    const why = whyUnreadable(entry);
    if (why !== undefined)
        throw new ZipError(why);
    // The local header's name and extra field may differ from the central ones: at most 2 x 64 KiB.
    const span = Math.min(source.size - entry.headerOffset, LOCAL_SIZE + 2 * 0xffff + entry.compressedSize);
    const iterator = source.stream(entry.headerOffset, span)[Symbol.asyncIterator]();
    const reader = new ByteReader(iterator);
    try {
        await skipLocalHeader(reader, entry);
        const archived = reader.take(entry.compressedSize); // the bytes as the archive holds them
        yield* checked(entry.method === DEFLATED ? inflated(archived) : archived, entry);
    }
    finally {
        await iterator.return?.();
    }
}
/** Finds the end of central directory record in the archive's last 64 KiB and reads where the directory is. */
async function readEndRecord(source) {
    const tailStart = source.size - Math.min(source.size, END_SIZE + MAX_COMMENT);
    const tail = await readBytes(source, tailStart, source.size - tailStart);
    const at = findEndRecord(tail);
    if (at === undefined)
        throw new ZipError('no end of central directory record: not a zip archive');
    refuseZip64(tail, at);
    const end = tail.subarray(at);
    if (end.readUInt16LE(4) !== 0 || end.readUInt16LE(6) !== 0)
        throw new ZipError('an archive split over several disks');
    const directory = { count: end.readUInt16LE(10), size: end.readUInt32LE(12), offset: end.readUInt32LE(16) };
    if (directory.offset + directory.size > tailStart + at) {
        throw new ZipError(`the central directory (${directory.size} bytes at byte ${directory.offset}) does not end before its end record (byte ${tailStart + at})`);
    }
    return directory;
}
/** The last end record whose comment fits in what follows it (searching back: a comment may hold the signature too). */
function findEndRecord(tail) {
    for (let at = tail.length - END_SIZE; at >= 0; at--) {
        if (tail.readUInt32LE(at) === END_SIGNATURE && at + END_SIZE + tail.readUInt16LE(at + 20) <= tail.length)
            return at;
    }
    return undefined;
}
/** A ZIP64 archive marks the classic record's fields as "see ZIP64" and puts a locator right before it. */
function refuseZip64(tail, at) {
    const end = tail.subarray(at);
    const marked = end.readUInt16LE(10) === 0xffff || end.readUInt32LE(12) === 0xffffffff || end.readUInt32LE(16) === 0xffffffff;
    const locator = at >= ZIP64_LOCATOR_SIZE && tail.readUInt32LE(at - ZIP64_LOCATOR_SIZE) === ZIP64_LOCATOR_SIGNATURE;
    if (marked || locator)
        throw new ZipError(ZIP64_REFUSED);
}
function parseCentralDirectory(bytes, directory) {
    const index = new Map();
    let pos = 0;
    for (let i = 0; i < directory.count; i++) {
        const { entry, next } = centralHeader(bytes, pos);
        // A local header and the data after it must lie before the central directory.
        if (entry.headerOffset + LOCAL_SIZE + entry.compressedSize > directory.offset) {
            throw new ZipError(`the data of "${entry.name}" (${entry.compressedSize} bytes after byte ${entry.headerOffset}) runs into the central directory`);
        }
        if (entry.name !== '')
            index.set(entry.name, entry);
        pos = next;
    }
    return index;
}
/** One central directory header at `pos`, and where the next one starts. */
function centralHeader(bytes, pos) {
    if (pos + CENTRAL_SIZE > bytes.length || bytes.readUInt32LE(pos) !== CENTRAL_SIGNATURE) {
        throw new ZipError(`no central directory header at byte ${pos} of the central directory`);
    }
    const nameLength = bytes.readUInt16LE(pos + 28);
    const next = pos + CENTRAL_SIZE + nameLength + bytes.readUInt16LE(pos + 30) + bytes.readUInt16LE(pos + 32);
    if (next > bytes.length)
        throw new ZipError(`the central directory header at byte ${pos} runs past the central directory`);
    // UTF-8, as jar writes (flag 11) and zip writes on a UTF-8 system; CP437 names are ASCII in practice.
    const raw = bytes.toString('utf8', pos + CENTRAL_SIZE, pos + CENTRAL_SIZE + nameLength);
    const entry = {
        name: normalizeName(raw),
        directory: raw.endsWith('/'),
        flags: bytes.readUInt16LE(pos + 8),
        method: bytes.readUInt16LE(pos + 10),
        crc32: bytes.readUInt32LE(pos + 16),
        compressedSize: bytes.readUInt32LE(pos + 20),
        size: bytes.readUInt32LE(pos + 24),
        headerOffset: bytes.readUInt32LE(pos + 42)
    };
    if ([entry.compressedSize, entry.size, entry.headerOffset].includes(0xffffffff))
        throw new ZipError(ZIP64_REFUSED);
    return { entry, next };
}
/** Exactly `length` bytes from `offset`, held (the end record, the central directory). */
async function readBytes(source, offset, length) {
    const chunks = [];
    for await (const chunk of source.stream(offset, length))
        chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    if (bytes.length !== length)
        throw new ZipError(`the archive ends before byte ${offset + length}`);
    return bytes;
}
/** Steps over the local header; its sizes may be zero (a data descriptor follows the data), so the central ones count. */
async function skipLocalHeader(reader, entry) {
    const header = await reader.read(LOCAL_SIZE);
    if (header === undefined || header.readUInt32LE(0) !== LOCAL_SIGNATURE) {
        throw new ZipError(`no local header for "${entry.name}" at byte ${entry.headerOffset}`);
    }
    await reader.skip(header.readUInt16LE(26) + header.readUInt16LE(28));
}
async function* inflated(compressed) {
    const inflate = (0,external_node_zlib_namespaceObject.createInflateRaw)();
    const input = external_node_stream_namespaceObject.Readable.from(compressed);
    input.once('error', (err) => inflate.destroy(err));
    input.pipe(inflate);
    try {
        for await (const chunk of inflate)
            yield chunk;
    }
    finally {
        input.destroy();
        inflate.destroy();
    }
}
/**
 * Passes the data on, one chunk behind, and the last only once its size and CRC-32 are right: a damaged entry
 * never reaches a client whole (it sees fewer bytes than announced). Never more bytes than the directory says.
 */
async function* checked(chunks, entry) {
    let size = 0;
    let crc = 0;
    let held;
    for await (const chunk of chunks) {
        size += chunk.length;
        if (size > entry.size)
            throw new ZipError(`"${entry.name}" holds more than the ${entry.size} bytes its directory entry says`);
        crc = crc32(chunk, crc);
        if (held !== undefined)
            yield held;
        held = chunk;
    }
    if (size !== entry.size)
        throw new ZipError(`"${entry.name}" holds ${size} bytes, its directory entry says ${entry.size}`);
    if (crc !== entry.crc32)
        throw new ZipError(`"${entry.name}" fails its CRC-32 check`);
    if (held !== undefined)
        yield held;
}
// CRC-32 as zip uses it (reflected, polynomial 0xEDB88320): kept here rather than zlib.crc32, which Node 20 gained only in 20.15.
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++)
        c = (c & 1) !== 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
});
function crc32(data, previous) {
    let crc = ~previous;
    for (const byte of data)
        crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
    return ~crc >>> 0;
}

;// CONCATENATED MODULE: ./src/emulator/sites.ts
// The emulated sites: GET /sites/<environment name>/<path> answers the file at <path> of the release that
// environment runs, so a client can health-check a release after a deploy. As on brXM, the environment's
// host serves the site webapp: the files inside webapps/site.war (a zip), also under its context path
// (/site/...). A file at the distribution's root is served too, after the webapp's: a convenience of the
// emulator's own. A public site: no authorization. No counterpart in the platform's API.



/** A distribution whose archive holds this file at its root makes its site answer 500 on every path. */
const SITE_FAILS_MARKER = 'EMULATOR-SITE-FAILS';
const TEXT = 'text/plain; charset=utf-8';
const CONTENT_TYPES = {
    '.html': 'text/html; charset=utf-8',
    '.htm': 'text/html; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.mjs': 'text/javascript; charset=utf-8',
    '.json': 'application/json',
    '.xml': 'application/xml',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg',
    '.gif': 'image/gif',
    '.ico': 'image/x-icon',
    '.pdf': 'application/pdf'
};
function fail(ctx, status, message, headers = {}) {
    ctx.sendText(status, TEXT, `${message}\n`, headers);
}
/** `fail`, for the steps that return what they found: undefined, the answer already sent. */
function refused(ctx, status, message, headers = {}) {
    fail(ctx, status, message, headers);
    return undefined;
}
/** A path names a file; no path, or one ending with '/', names that directory's index.html. */
const fileOf = (path) => (path === '' || path.endsWith('/') ? `${path}index.html` : path);
/** The site webapp's archive, and its context path: brXM serves it at /site/ as well as at the host's root. */
const SITE_WAR = 'webapps/site.war';
const SITE_CONTEXT = 'site';
/** A distribution held in memory (the simulation's): its root files only, by the same rules (the failing marker, index.html, 404). */
function serveFromMemory(ctx, dist, files) {
    if (files[SITE_FAILS_MARKER] !== undefined)
        return fail(ctx, 500, `Distribution ${dist.id} contains ${SITE_FAILS_MARKER}: its site fails`);
    const path = fileOf(ctx.params.path ?? '');
    const text = files[path];
    if (text === undefined)
        return fail(ctx, 404, `No file "${path}" in distribution ${dist.id}`);
    ctx.sendText(200, contentTypeOf(path), text);
}
const contentTypeOf = (name) => CONTENT_TYPES[(0,external_node_path_namespaceObject.extname)(name).toLowerCase()] ?? TEXT;
const reasonOf = (err) => (err instanceof Error ? err.message : String(err));
/** webapps/site.war read as the zip it is (its central directory only); undefined when the distribution has none. */
async function openSiteWebapp(tarPath, tar) {
    const war = findFile(tar, SITE_WAR);
    if (war === undefined)
        return undefined;
    const source = { size: war.size, stream: (offset, length) => readEntryPart(tarPath, war, offset, length) };
    return { source, index: await readZipIndex(source) };
}
/** The webapp's file a request names: at the host's root first, then under the context path (/site/...). */
function webappFile(webapp, requested) {
    if (webapp === undefined)
        return undefined;
    const underContext = requested === SITE_CONTEXT || requested.startsWith(`${SITE_CONTEXT}/`);
    const entry = findZipFile(webapp.index, fileOf(requested)) ?? (underContext ? findZipFile(webapp.index, fileOf(requested.slice(SITE_CONTEXT.length + 1))) : undefined);
    return entry === undefined ? undefined : { source: webapp.source, entry };
}
async function sendWebappFile(ctx, file, dist) {
    const why = whyUnreadable(file.entry);
    if (why !== undefined)
        return fail(ctx, 500, `The emulator cannot read ${SITE_WAR} of distribution ${dist.id}: ${why}`);
    await ctx.sendStream(200, { 'content-type': contentTypeOf(file.entry.name) }, file.entry.size, readZipEntry(file.source, file.entry));
}
/** The value made once per distribution (keyed by the record, so a deleted one is forgotten); a failed one is made again next time. */
function once(cache, dist, make) {
    let value = cache.get(dist);
    if (value === undefined) {
        value = make();
        value.catch(() => cache.delete(dist));
        cache.set(dist, value);
    }
    return value;
}
/** The emulator's convenience: a file at the distribution's root, when the site webapp has none of that name. */
async function sendRootFile(ctx, dist, release) {
    const path = fileOf(ctx.params.path ?? '');
    const entry = findFile(release.tar, path);
    if (entry === undefined) {
        const where = release.webapp === undefined ? 'in distribution' : `in ${SITE_WAR} or at the root of distribution`;
        return fail(ctx, 404, `No file "${path}" ${where} ${dist.id} of environment "${ctx.params.environment ?? ''}"`);
    }
    await ctx.sendStream(200, { 'content-type': contentTypeOf(entry.name) }, entry.size, readEntry(release.tarPath, entry));
}
function sitesApi(state) {
    // One read of the archive's headers, and of site.war's central directory, per distribution.
    const tarIndexes = new WeakMap();
    const webapps = new WeakMap();
    /** The distribution the environment serves now, or undefined once the answer was sent. */
    const servedBy = (ctx) => {
        const name = ctx.params.environment ?? '';
        const env = state.environments.find((e) => e.name === name);
        if (env === undefined)
            return refused(ctx, 404, `No environment named "${name}"`);
        if (env.status === 'deploying' && state.settings.siteDuringDeploy === 'unavailable') {
            return refused(ctx, 503, `Environment "${name}" is deploying`, { 'retry-after': '1' });
        }
        // What runs: the old release until the switch is done, whatever the API reports.
        const dist = env.serving === null ? undefined : state.distributions.find((d) => d.id === env.serving);
        return dist ?? refused(ctx, 404, `Environment "${name}" runs no distribution`);
    };
    /** Reads (once) what the site of a stored distribution needs, or undefined once a 500 was sent. */
    const readRelease = async (ctx, dist, tarPath) => {
        let tar;
        try {
            tar = await once(tarIndexes, dist, () => readTarIndex(tarPath));
        }
        catch (err) {
            return refused(ctx, 500, `The emulator could not read distribution ${dist.id}: ${reasonOf(err)}`);
        }
        if (tar.has(SITE_FAILS_MARKER))
            return refused(ctx, 500, `Distribution ${dist.id} contains ${SITE_FAILS_MARKER}: its site fails`);
        try {
            return { tarPath, tar, webapp: await once(webapps, dist, () => openSiteWebapp(tarPath, tar)) };
        }
        catch (err) {
            // Tomcat would not deploy such a war: the site fails rather than fall back to the root files.
            const problem = `${SITE_WAR} of distribution ${dist.id} is not a zip the emulator can read (${reasonOf(err)}): its site webapp would not start`;
            return refused(ctx, 500, problem);
        }
    };
    const handler = async (ctx) => {
        const dist = servedBy(ctx);
        if (dist === undefined)
            return;
        if (dist.files !== undefined)
            return serveFromMemory(ctx, dist, dist.files);
        if (dist.path === undefined) {
            return fail(ctx, 500, 'The emulator keeps no upload contents (started with keepUploads: false / --no-keep-uploads), so it cannot serve sites');
        }
        const release = await readRelease(ctx, dist, dist.path);
        if (release === undefined)
            return;
        const inWebapp = webappFile(release.webapp, ctx.params.path ?? '');
        if (inWebapp !== undefined)
            return sendWebappFile(ctx, inWebapp, dist);
        await sendRootFile(ctx, dist, release);
    };
    const summary = "A file of the release the environment runs: inside webapps/site.war (also under /site/), else at the distribution's root (no authorization; no path: index.html); 503 while deploying, 404 when missing or running none, 500 for every path when the distribution holds the root file 'EMULATOR-SITE-FAILS' or a site.war that is not a readable zip";
    const routes = [];
    for (const method of ['GET', 'HEAD']) {
        routes.push({ method, path: '/sites/{environment}', operation: 'site', summary, handler });
        routes.push({ method, path: '/sites/{environment}/{path+}', operation: 'site', summary, handler });
    }
    return { name: 'sites', routes };
}

;// CONCATENATED MODULE: ./src/emulator/sso-keys.ts
// RS256 signing keys and JSON Web Tokens (RFC 7515, 7519) of the SSO stand-ins, with node:crypto only:
// the identity provider and the GitHub OIDC stand-in each sign with a key pair made per process.

const shared = new Map();
/**
 * One key pair per process for `role`: a simulation makes thousands of stacks in one process, and a 2048-bit
 * key pair takes tens of milliseconds to make. A stack that shares keys trusts another such stack's tokens.
 */
function sharedSigningKey(role) {
    let key = shared.get(role);
    if (key === undefined) {
        key = newSigningKey();
        shared.set(role, key);
    }
    return key;
}
function newSigningKey() {
    const { privateKey, publicKey } = (0,external_node_crypto_namespaceObject.generateKeyPairSync)('rsa', { modulusLength: 2048 });
    const kid = (0,external_node_crypto_namespaceObject.randomUUID)();
    return { kid, privateKey, publicKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}
const encode = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
function signJwt(claims, key) {
    const input = `${encode({ alg: 'RS256', typ: 'JWT', kid: key.kid })}.${encode(claims)}`;
    return `${input}.${(0,external_node_crypto_namespaceObject.createSign)('RSA-SHA256').update(input).sign(key.privateKey, 'base64url')}`;
}
function decode(part) {
    try {
        return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    }
    catch {
        return undefined;
    }
}
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/**
 * Checks the structure, the signature with `key` (RS256 only: a token of another algorithm, such as the
 * password login's HS256, is not signed by this key) and `exp` against `nowMs` unless `ignoreExpiry`.
 */
function verifyJwt(token, key, nowMs = Date.now(), ignoreExpiry = false) {
    const parts = token.split('.');
    if (parts.length !== 3)
        return { ok: false, reason: 'malformed' };
    const [header, payload, signature] = parts;
    const head = decode(header);
    const claims = decode(payload);
    if (!isObject(head) || !isObject(claims))
        return { ok: false, reason: 'malformed' };
    if (head.alg !== 'RS256')
        return { ok: false, reason: 'signature' };
    if (!(0,external_node_crypto_namespaceObject.createVerify)('RSA-SHA256').update(`${header}.${payload}`).verify(key.publicKey, signature, 'base64url'))
        return { ok: false, reason: 'signature' };
    if (typeof claims.exp !== 'number')
        return { ok: false, reason: 'malformed' };
    if (!ignoreExpiry && nowMs >= claims.exp * 1000)
        return { ok: false, reason: 'expired' };
    return { ok: true, claims };
}
/** An `aud` claim (a string or an array of strings) as a list. */
function audiences(claims) {
    const aud = claims.aud;
    if (typeof aud === 'string')
        return [aud];
    return Array.isArray(aud) ? aud.filter((a) => typeof a === 'string') : [];
}

;// CONCATENATED MODULE: ./src/emulator/sso-options.ts
/** The job the GitHub OIDC stand-in signs for unless told otherwise: a push to main of acme/site, no environment. */
const GITHUB_JOB = {
    repository: 'acme/site',
    repositoryId: '700001',
    repositoryOwnerId: '700000',
    ref: 'refs/heads/main',
    /** The commit `npm run action` runs at when GITHUB_SHA is not set. */
    sha: '0123456789abcdef0123456789abcdef01234567',
    eventName: 'push',
    workflow: 'Deploy',
    workflowFile: '.github/workflows/deploy.yml',
    runId: '1',
    runNumber: '1',
    runAttempt: '1',
    actor: 'acme-developer',
    actorId: '700002',
    baseRef: '',
    headRef: ''
};
const SSO_DEFAULTS = {
    passwordLogin: '403',
    audience: 'brcloud-api',
    clients: [{ id: 'ci-client', secret: 'ci-secret-123456' }],
    accessTokenSeconds: 600,
    refreshTokens: 'password',
    revocation: true,
    federation: { clientId: 'gh-federated', audience: 'api://brcloud-ci', subject: 'repo:acme/site:*' },
    githubJob: GITHUB_JOB,
    /** The GitHub OIDC stand-in's tokens live 5 minutes. */
    oidc: { lifetimeSeconds: 300 }
};
/** The options with every default filled in; throws on values the stand-in cannot serve. */
function resolveSso(options) {
    const resolved = {
        passwordLogin: options.passwordLogin ?? SSO_DEFAULTS.passwordLogin,
        audience: options.audience ?? SSO_DEFAULTS.audience,
        clients: (options.clients ?? SSO_DEFAULTS.clients).map((c) => ({ ...c })),
        accessTokenSeconds: options.accessTokenSeconds ?? SSO_DEFAULTS.accessTokenSeconds,
        refreshTokens: options.refreshTokens ?? SSO_DEFAULTS.refreshTokens,
        revocation: options.revocation ?? SSO_DEFAULTS.revocation,
        federation: { ...SSO_DEFAULTS.federation, ...options.federation },
        githubJob: { ...SSO_DEFAULTS.githubJob, ...options.githubJob }
    };
    // Emulator.sso names the first client: a stack with none could not be wired.
    if (resolved.clients.length === 0)
        throw new Error('sso.clients needs at least one client');
    if (!Number.isInteger(resolved.accessTokenSeconds) || resolved.accessTokenSeconds < 1) {
        throw new Error(`sso.accessTokenSeconds must be a whole number >= 1, got ${resolved.accessTokenSeconds}`);
    }
    if (!/^[^/\s]+\/[^/\s]+$/.test(resolved.githubJob.repository)) {
        throw new Error(`sso.githubJob.repository must be owner/name, got "${resolved.githubJob.repository}"`);
    }
    return resolved;
}

;// CONCATENATED MODULE: ./src/emulator/sso-github-oidc.ts
// A stand-in for GitHub Actions' OIDC token service, as @actions/core's getIDToken calls it: GET the
// request URL (which carries ?api-version=2.0) plus `&audience=...` with `Authorization: Bearer <request
// token>`, answered `{"value": "<jwt>"}`. The JWT carries what GitHub's OpenID Connect reference lists:
// GitHub's issuer, the subject in GitHub's forms and the job's claims; it is signed (RS256) with the
// stand-in's own key, served locally: an identity provider that trusts GitHub's issuer takes its keys
// from here (the emulator cannot reach GitHub's, and its tokens are not GitHub's).




const OIDC_PATH = '/github-oidc';
/** The `iss` of GitHub Actions' OIDC tokens (github.com; GitHub Enterprise Server has its own). */
const GITHUB_OIDC_ISSUER = 'https://token.actions.githubusercontent.com';
/**
 * The claims GitHub's token service advertises in its discovery document (claims_supported), in its order: a
 * token of this stand-in carries a subset (not enterprise, ref_protected, environment_node_id, issuer_scope).
 */
const GITHUB_OIDC_CLAIMS = [
    'sub',
    'aud',
    'exp',
    'iat',
    'iss',
    'jti',
    'nbf',
    'ref',
    'sha',
    'repository',
    'repository_id',
    'repository_owner',
    'repository_owner_id',
    'enterprise',
    'enterprise_id',
    'run_id',
    'run_number',
    'run_attempt',
    'actor',
    'actor_id',
    'workflow',
    'workflow_ref',
    'workflow_sha',
    'head_ref',
    'base_ref',
    'event_name',
    'ref_type',
    'ref_protected',
    'environment',
    'environment_node_id',
    'job_workflow_ref',
    'job_workflow_sha',
    'repository_visibility',
    'runner_environment',
    'issuer_scope'
];
/** A value inside the subject: GitHub writes a `:` in it as `%3A`, so the parts stay apart. */
const subjectPart = (value) => value.replaceAll(':', '%3A');
/**
 * The subject as GitHub forms it by default: the job's environment when it has one, else `pull_request` for a
 * run a pull request triggered, else the ref (a branch or a tag).
 */
function githubSubject(job) {
    const repo = `repo:${subjectPart(job.repository)}`;
    if (job.environment !== undefined && job.environment !== '')
        return `${repo}:environment:${subjectPart(job.environment)}`;
    if (job.eventName === 'pull_request')
        return `${repo}:pull_request`;
    return `${repo}:ref:${subjectPart(job.ref)}`;
}
/** The claims of a token for `audience` (when absent: the URL of the repository's owner, GitHub's default), issued at `iat`. */
function githubClaims(job, audience, iat) {
    const owner = job.repository.split('/')[0] ?? '';
    const workflowRef = `${job.repository}/${job.workflowFile}@${job.ref}`;
    return {
        jti: (0,external_node_crypto_namespaceObject.randomUUID)(),
        sub: githubSubject(job),
        ...(job.environment !== undefined && job.environment !== '' && { environment: job.environment }),
        aud: audience ?? `https://github.com/${owner}`,
        ref: job.ref,
        sha: job.sha,
        repository: job.repository,
        repository_owner: owner,
        repository_owner_id: job.repositoryOwnerId,
        repository_id: job.repositoryId,
        repository_visibility: 'private',
        run_id: job.runId,
        run_number: job.runNumber,
        run_attempt: job.runAttempt,
        runner_environment: 'github-hosted',
        actor: job.actor,
        actor_id: job.actorId,
        workflow: job.workflow,
        workflow_ref: workflowRef,
        workflow_sha: job.sha,
        // The job's own workflow: the same as workflow_ref unless the job runs a reusable workflow (not modelled).
        job_workflow_ref: workflowRef,
        job_workflow_sha: job.sha,
        head_ref: job.headRef,
        base_ref: job.baseRef,
        event_name: job.eventName,
        ref_type: job.ref.startsWith('refs/tags/') ? 'tag' : 'branch',
        iss: GITHUB_OIDC_ISSUER,
        nbf: iat,
        iat,
        exp: iat + SSO_DEFAULTS.oidc.lifetimeSeconds
    };
}
class GitHubOidc {
    job;
    baseOf;
    key;
    /** The runner's ACTIONS_ID_TOKEN_REQUEST_TOKEN: one per process. */
    requestToken = `oidc-request-${(0,external_node_crypto_namespaceObject.randomUUID)()}`;
    issuer = GITHUB_OIDC_ISSUER;
    constructor(job, key, 
    /** The emulator's own address as a request reached it: where the key set is served. */
    baseOf = (ctx) => `http://${ctx.req.headers.host ?? '127.0.0.1'}`) {
        this.job = job;
        this.baseOf = baseOf;
        this.key = key ?? newSigningKey();
    }
    get subject() {
        return githubSubject(this.job);
    }
    routes() {
        return [
            {
                method: 'GET',
                path: `${OIDC_PATH}/token`,
                operation: 'oidc-token',
                summary: `GitHub OIDC stand-in: {value: jwt} for ?audience= with Authorization: Bearer <request token> (iss ${GITHUB_OIDC_ISSUER})`,
                handler: (ctx) => this.token(ctx)
            },
            {
                method: 'GET',
                path: `${OIDC_PATH}/.well-known/openid-configuration`,
                operation: 'oidc-discovery',
                summary: "GitHub OIDC stand-in: its discovery document (GitHub's issuer, the key set served here, the claims GitHub advertises)",
                handler: (ctx) => ctx.send(200, this.discovery(this.baseOf(ctx)))
            },
            {
                method: 'GET',
                path: `${OIDC_PATH}/.well-known/jwks`,
                operation: 'oidc-jwks',
                summary: 'GitHub OIDC stand-in: the key set its tokens are signed with',
                handler: (ctx) => ctx.send(200, { keys: [this.key.jwk] })
            }
        ];
    }
    /**
     * What GitHub's token service serves at /.well-known/openid-configuration, but with the key set of this stand-in
     * (GitHub's cannot be reached from here, and would not verify this stand-in's tokens).
     */
    discovery(base) {
        return {
            issuer: this.issuer,
            jwks_uri: `${base}${OIDC_PATH}/.well-known/jwks`,
            subject_types_supported: ['public', 'pairwise'],
            response_types_supported: ['id_token'],
            claims_supported: [...GITHUB_OIDC_CLAIMS],
            id_token_signing_alg_values_supported: ['RS256'],
            scopes_supported: ['openid']
        };
    }
    token(ctx) {
        const m = /^bearer\s+(\S+)\s*$/i.exec(ctx.req.headers.authorization ?? '');
        // GitHub's body for a bad request token is not public: this one is the emulator's own.
        if (m?.[1] !== this.requestToken)
            throw new HttpError(401, 'Unauthorized', 'Bad credentials');
        const claims = githubClaims(this.job, ctx.url.searchParams.get('audience') ?? undefined, Math.floor(Date.now() / 1000));
        ctx.send(200, { value: signJwt(claims, this.key) });
    }
}

;// CONCATENATED MODULE: ./src/emulator/sso-idp.ts
// A stand-in identity provider (OAuth 2.0, RFC 6749) under /idp/ for single sign-on stacks. Which IdP a
// real stack uses, and the grant, audience and scope Bloomreach expects, are not public: this one serves
// the usual shapes (Auth0's `audience`, Entra's `<resource>/.default` scope), client_secret_basic,
// client_secret_post and a GitHub OIDC token as client assertion (RFC 7523), and revocation (RFC 7009).


const IDP_PATH = '/idp';
const FORM_LIMIT = 64 * 1024;
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
/** RFC 6749 5.2: 400 with `error`, or 401 invalid_client (with a Basic challenge when Basic was used). The stack writes `{error, error_description}`. */
function oauthError(error, description, basic = false) {
    if (error === 'invalid_client')
        return new HttpError(401, error, description, basic ? { 'www-authenticate': 'Basic realm="idp"' } : {});
    return new HttpError(400, error, description);
}
/** The form body (recorded as `json`); parameters sent twice are refused (RFC 6749 3.2). */
async function readForm(ctx) {
    const body = await readBody(ctx.req, FORM_LIMIT);
    const form = new Map();
    let repeated;
    for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
        if (form.has(name))
            repeated = name;
        form.set(name, value);
    }
    ctx.record.json = Object.fromEntries(form);
    const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded')
        throw oauthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
    if (repeated !== undefined)
        throw oauthError('invalid_request', `The parameter "${repeated}" is sent more than once`);
    return form;
}
/** RFC 6749 2.3.1: id and secret are form-encoded before Basic's base64. */
function basicCredentials(header) {
    const m = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (m?.[1] === undefined)
        return undefined;
    const text = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = text.indexOf(':');
    if (colon < 0)
        return undefined;
    const formDecode = (part) => {
        try {
            return decodeURIComponent(part.replace(/\+/g, ' '));
        }
        catch {
            return undefined;
        }
    };
    const id = formDecode(text.slice(0, colon));
    const secret = formDecode(text.slice(colon + 1));
    return id === undefined || secret === undefined ? undefined : { id, secret };
}
/** A glob of `*` (any run of characters) and literal text, for a federated subject. */
function globMatches(glob, value) {
    const pattern = glob
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
    return new RegExp(`^${pattern}$`).test(value);
}
class IdentityProvider {
    options;
    settings;
    tokens;
    oidc;
    baseOf;
    constructor(options, settings, tokens, oidc, baseOf) {
        this.options = options;
        this.settings = settings;
        this.tokens = tokens;
        this.oidc = oidc;
        this.baseOf = baseOf;
    }
    issuer(base) {
        return `${base}${IDP_PATH}`;
    }
    routes() {
        return [
            {
                method: 'GET',
                path: `${IDP_PATH}/.well-known/openid-configuration`,
                operation: 'idp-discovery',
                summary: 'SSO identity provider stand-in: its discovery document',
                handler: (ctx) => ctx.send(200, this.discovery(this.issuer(this.baseOf(ctx))))
            },
            {
                method: 'GET',
                path: `${IDP_PATH}/.well-known/jwks.json`,
                operation: 'idp-jwks',
                summary: 'SSO identity provider stand-in: the key set its access tokens are signed with',
                handler: (ctx) => ctx.send(200, { keys: [this.tokens.key.jwk] })
            },
            {
                method: 'POST',
                path: `${IDP_PATH}/oauth/token`,
                operation: 'idp-token',
                summary: 'SSO identity provider stand-in: grants client_credentials (secret or GitHub OIDC client assertion), password, refresh_token',
                handler: (ctx) => this.token(ctx)
            },
            {
                method: 'POST',
                path: `${IDP_PATH}/oauth/revoke`,
                operation: 'idp-revoke',
                summary: 'SSO identity provider stand-in: revokes an access or refresh token (RFC 7009)',
                handler: (ctx) => this.revoke(ctx)
            }
        ];
    }
    discovery(issuer) {
        return {
            issuer,
            token_endpoint: `${issuer}/oauth/token`,
            ...(this.options.revocation && { revocation_endpoint: `${issuer}/oauth/revoke` }),
            jwks_uri: `${issuer}/.well-known/jwks.json`,
            grant_types_supported: ['client_credentials', 'password', 'refresh_token'],
            token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
            id_token_signing_alg_values_supported: ['RS256']
        };
    }
    async token(ctx) {
        const form = await readForm(ctx);
        const grantType = form.get('grant_type');
        if (grantType === undefined || grantType === '')
            throw oauthError('invalid_request', 'The parameter "grant_type" is required');
        if (!['client_credentials', 'password', 'refresh_token'].includes(grantType)) {
            throw oauthError('unsupported_grant_type', `The grant type "${grantType}" is not supported`);
        }
        const client = this.authenticateClient(ctx, form);
        const { refreshTokens } = this.options;
        if (grantType === 'password')
            return this.answer(ctx, this.passwordGrant(ctx, form, client), refreshTokens !== 'none');
        // The same refresh token again: the emulator does not rotate them (not public whether the real IdP does).
        if (grantType === 'refresh_token')
            return this.answer(ctx, this.refreshGrant(form, client), refreshTokens !== 'none', form.get('refresh_token'));
        if (client.method === 'none')
            throw oauthError('invalid_client', 'The client_credentials grant needs client authentication');
        this.answer(ctx, { sub: client.id, clientId: client.id, ...this.audienceAndScope(ctx, form) }, refreshTokens === 'all');
    }
    answer(ctx, grant, withRefresh, refreshToken) {
        const access = this.tokens.issueAccess(grant, this.issuer(this.baseOf(ctx)));
        const refresh = withRefresh ? (refreshToken ?? this.tokens.issueRefresh(grant)) : undefined;
        const body = {
            access_token: access.token,
            token_type: 'Bearer',
            expires_in: access.expiresIn,
            ...(grant.scope !== undefined && { scope: grant.scope }),
            ...(refresh !== undefined && { refresh_token: refresh })
        };
        ctx.send(200, body, NO_STORE);
    }
    /** The token's audience: `audience` (Auth0), else a `<resource>/.default` scope (Entra), else the IdP's own userinfo (which the cloud API refuses). */
    audienceAndScope(ctx, form) {
        const scope = form.get('scope') || undefined;
        const fromScope = scope
            ?.split(' ')
            .find((s) => s.endsWith('/.default'))
            ?.slice(0, -'/.default'.length);
        const audience = form.get('audience') || fromScope || `${this.issuer(this.baseOf(ctx))}/userinfo`;
        return scope === undefined ? { audience } : { audience, scope };
    }
    passwordGrant(ctx, form, client) {
        const username = form.get('username');
        const password = form.get('password');
        if (!username || password === undefined)
            throw oauthError('invalid_request', 'The password grant needs "username" and "password"');
        if (username !== this.settings.username || password !== this.settings.password)
            throw oauthError('invalid_grant', 'Wrong username or password');
        return { sub: username, ...(client.method !== 'none' && { clientId: client.id }), ...this.audienceAndScope(ctx, form) };
    }
    refreshGrant(form, client) {
        const token = form.get('refresh_token');
        if (!token)
            throw oauthError('invalid_request', 'The refresh_token grant needs "refresh_token"');
        const grant = this.tokens.refreshGrant(token);
        if (grant === undefined)
            throw oauthError('invalid_grant', 'The refresh token is invalid, expired or revoked');
        // RFC 6749 6: a refresh token issued to a client is only good for that client.
        if (grant.clientId !== undefined && client.method === 'none')
            throw oauthError('invalid_client', 'The refresh token was issued to a client: authenticate it');
        if (grant.clientId !== undefined && grant.clientId !== client.id)
            throw oauthError('invalid_grant', 'The refresh token was issued to another client');
        return grant;
    }
    async revoke(ctx) {
        if (!this.options.revocation)
            throw new HttpError(404, 'NotFound', `No operation at "${ctx.url.pathname}"`);
        const form = await readForm(ctx);
        const client = this.authenticateClient(ctx, form);
        if (client.method === 'none')
            throw oauthError('invalid_client', 'Revocation needs client authentication');
        const token = form.get('token');
        if (!token)
            throw oauthError('invalid_request', 'The parameter "token" is required');
        this.tokens.revoke(token);
        ctx.send(200);
    }
    /** RFC 6749 2.3: one method of Basic, id and secret in the body, or a client assertion; a bare client_id (a public client) is 'none'. */
    authenticateClient(ctx, form) {
        const header = ctx.req.headers.authorization;
        const basic = header !== undefined && /^basic\s/i.test(header);
        const methods = [basic, form.has('client_secret'), form.has('client_assertion') || form.has('client_assertion_type')].filter(Boolean).length;
        if (methods > 1)
            throw oauthError('invalid_request', 'Use one client authentication method, not several');
        if (basic)
            return this.secretClient(basicCredentials(header ?? ''), 'basic');
        if (form.has('client_secret'))
            return this.secretClient({ id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' }, 'post');
        if (methods === 1)
            return this.assertionClient(form);
        const id = form.get('client_id');
        if (id === undefined)
            return { id: '', method: 'none' };
        if (!this.options.clients.some((c) => c.id === id) && id !== this.options.federation.clientId)
            throw oauthError('invalid_client', `Unknown client "${id}"`);
        return { id, method: 'none' };
    }
    secretClient(credentials, method) {
        const known = this.options.clients.find((c) => c.id === credentials?.id && c.secret === credentials.secret);
        if (known === undefined)
            throw oauthError('invalid_client', 'Client authentication failed', method === 'basic');
        return { id: known.id, method };
    }
    /** RFC 7523 2.2: a GitHub OIDC token (GitHub's issuer, the stand-in's key), for the federation's audience and a subject its glob admits. */
    assertionClient(form) {
        const { federation } = this.options;
        if (form.get('client_assertion_type') !== JWT_BEARER)
            throw oauthError('invalid_request', `"client_assertion_type" must be "${JWT_BEARER}"`);
        const assertion = form.get('client_assertion');
        if (!assertion)
            throw oauthError('invalid_request', 'The parameter "client_assertion" is required');
        const id = form.get('client_id');
        if (id !== undefined && id !== federation.clientId)
            throw oauthError('invalid_client', `The client "${id}" does not authenticate with an assertion`);
        const refuse = (why) => oauthError('invalid_client', `The client assertion is refused: ${why}`);
        // The federation trusts GitHub's issuer; its keys are the local OIDC stand-in's (GitHub's own are not reachable from here).
        const reading = verifyJwt(assertion, this.oidc.key);
        if (!reading.ok)
            throw refuse({ malformed: 'it is malformed', signature: 'its signature is invalid', expired: 'it has expired' }[reading.reason]);
        const { claims } = reading;
        const issuer = this.oidc.issuer;
        if (claims.iss !== issuer)
            throw refuse(`its issuer is ${JSON.stringify(claims.iss)}, not "${issuer}"`);
        if (!audiences(claims).includes(federation.audience))
            throw refuse(`its audience is ${JSON.stringify(claims.aud)}, not "${federation.audience}"`);
        const sub = typeof claims.sub === 'string' ? claims.sub : '';
        if (!globMatches(federation.subject, sub))
            throw refuse(`its subject "${sub}" does not match "${federation.subject}"`);
        return { id: federation.clientId, method: 'assertion' };
    }
}

;// CONCATENATED MODULE: ./src/emulator/sso-tokens.ts
// The stand-in identity provider's tokens: RS256 access tokens (JWTs) it signs and the cloud API checks in
// SSO mode, and opaque refresh tokens; both revocable.


class IdpTokens {
    accessSeconds;
    refreshSeconds;
    apiAudience;
    skewSeconds;
    key;
    /** Access tokens issued and not revoked, by jti (a revoked one stops working at the cloud API too). */
    live = new Map();
    refresh = new Map();
    constructor(accessSeconds, refreshSeconds, 
    /** The audience the cloud API accepts. */
    apiAudience, 
    /** How long past its `exp` the cloud API still accepts an access token (clock skew allowed). */
    skewSeconds = 0, key) {
        this.accessSeconds = accessSeconds;
        this.refreshSeconds = refreshSeconds;
        this.apiAudience = apiAudience;
        this.skewSeconds = skewSeconds;
        this.key = key ?? newSigningKey();
    }
    /** `lifetimeSeconds`: the identity provider's default, or another (a token an earlier step got with its own lifetime). */
    issueAccess(grant, issuer, lifetimeSeconds = this.accessSeconds) {
        const iat = Math.floor(Date.now() / 1000);
        const exp = iat + lifetimeSeconds;
        const jti = (0,external_node_crypto_namespaceObject.randomUUID)();
        this.prune();
        this.live.set(jti, { sub: grant.sub, expiresAtMs: exp * 1000 + this.skewSeconds * 1000 });
        const claims = { iss: issuer, sub: grant.sub, aud: grant.audience, iat, exp, jti, ...(grant.scope !== undefined && { scope: grant.scope }) };
        return { token: signJwt({ ...claims, ...(grant.clientId !== undefined && { azp: grant.clientId }) }, this.key), expiresIn: lifetimeSeconds };
    }
    issueRefresh(grant) {
        const token = `rt_${(0,external_node_crypto_namespaceObject.randomBytes)(32).toString('base64url')}`;
        this.refresh.set(token, { grant, expiresAtMs: Date.now() + this.refreshSeconds * 1000 });
        return token;
    }
    /** The grant a live refresh token stands for. */
    refreshGrant(token) {
        const found = this.refresh.get(token);
        if (found === undefined || Date.now() >= found.expiresAtMs)
            return undefined;
        return found.grant;
    }
    /** RFC 7009: a refresh token or an access token of this issuer (expired or not); anything else is ignored. */
    revoke(token) {
        if (this.refresh.delete(token))
            return;
        const reading = verifyJwt(token, this.key, Date.now(), true);
        if (reading.ok && typeof reading.claims.jti === 'string')
            this.live.delete(reading.claims.jti);
    }
    /** The cloud API's check of a bearer token: signed by this key, not expired (past the skew allowed), for its audience, not revoked. */
    check(token) {
        const reading = verifyJwt(token, this.key, Date.now() - this.skewSeconds * 1000);
        if (!reading.ok) {
            const detail = {
                malformed: 'The token is malformed',
                signature: 'The token signature is invalid: it is not signed by the identity provider',
                expired: 'The token has expired'
            };
            return { ok: false, detail: detail[reading.reason] };
        }
        const { claims } = reading;
        const aud = audiences(claims);
        if (!aud.includes(this.apiAudience)) {
            const named = aud.length === 0 ? 'no audience' : `the audience ${aud.map((a) => `"${a}"`).join(', ')}`;
            return { ok: false, detail: `The token has ${named}, not this API's ("${this.apiAudience}")` };
        }
        const jti = typeof claims.jti === 'string' ? claims.jti : '';
        const live = this.live.get(jti);
        if (live === undefined)
            return { ok: false, detail: 'The token has been revoked' };
        return { ok: true, sub: live.sub, jti };
    }
    revokeAll(sub) {
        for (const [jti, live] of this.live)
            if (sub === undefined || live.sub === sub)
                this.live.delete(jti);
    }
    /** As the cloud API's access tokens; its 401s say AuthenticationFailed, as for a failed login. */
    asAccessTokens() {
        return { refusal: 'AuthenticationFailed', check: (token) => this.check(token), revokeAll: (sub) => this.revokeAll(sub) };
    }
    prune() {
        const now = Date.now();
        for (const [jti, live] of this.live)
            if (now >= live.expiresAtMs)
                this.live.delete(jti);
        for (const [token, refresh] of this.refresh)
            if (now >= refresh.expiresAtMs)
                this.refresh.delete(token);
    }
}

;// CONCATENATED MODULE: ./src/emulator/sso.ts





function createSso(ssoOptions, settings, refreshSeconds, skewSeconds = 0) {
    const options = resolveSso(ssoOptions);
    let baseUrl;
    // In-process (the simulation) there is no listening address: the request's Host stands for it.
    const baseOf = (ctx) => baseUrl ?? `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
    const shared = ssoOptions.sharedKeys === true;
    const tokens = new IdpTokens(options.accessTokenSeconds, refreshSeconds, options.audience, skewSeconds, shared ? sharedSigningKey('idp') : undefined);
    const oidc = new GitHubOidc(options.githubJob, shared ? sharedSigningKey('github-oidc') : undefined, baseOf);
    const idp = new IdentityProvider(options, settings, tokens, oidc, baseOf);
    const [client] = options.clients;
    return {
        options,
        module: { name: 'sso-stand-ins', routes: [...idp.routes(), ...oidc.routes()] },
        access: tokens.asAccessTokens(),
        tokens,
        setBaseUrl: (url) => void (baseUrl = url),
        handle: (url) => ({
            tokenUrl: `${url}${IDP_PATH}/oauth/token`,
            issuer: idp.issuer(url),
            audience: options.audience,
            clientId: client?.id ?? '',
            clientSecret: client?.secret ?? '',
            federatedClientId: options.federation.clientId,
            federationSubject: options.federation.subject,
            oidcAudience: options.federation.audience,
            oidcRequestUrl: `${url}${OIDC_PATH}/token?api-version=2.0`,
            oidcRequestToken: oidc.requestToken,
            oidcIssuer: oidc.issuer,
            oidcSubject: oidc.subject,
            ...(options.revocation && { revocationUrl: `${url}${IDP_PATH}/oauth/revoke` })
        })
    };
}

;// CONCATENATED MODULE: ./src/emulator/invented.ts

const INVENTED_HEADER = 'x-emulator-invented';
/** Search API statuses the public error table names; any other status of a search path is the emulator's own. */
const SEARCH_STATUSES = new Set([400, 403, 414, 429, 431, 500, 504, 543]);
/**
 * The marks of an error answer. Cloud API: only 401 is a public status (a bad token, wrong credentials), and
 * `AuthenticationFailed` the only public code (wrong credentials at the login). The search API's statuses
 * are its error table's; its body shape is public. GitHub's error body is not public. Every `error_detail`
 * and `message` text is the emulator's own, so the wording is never marked (docs/emulator.md says so).
 */
function errorMarks(pathname, status, code) {
    if (pathname.startsWith('/api/'))
        return SEARCH_STATUSES.has(status) ? [] : [`status-${status}`];
    if (pathname.startsWith('/github-oidc/'))
        return ['error-body'];
    if (pathname.startsWith('/idp/'))
        return []; // the whole identity provider is marked sso-idp
    const marks = [];
    if (status !== 401)
        marks.push(`status-${status}`);
    if (!(code === 'AuthenticationFailed' && status === 401 && pathname === '/v3/authn/access_token'))
        marks.push('error-code');
    return marks;
}
/** Marks every answer of an operation carries, whatever the handler does. */
function operationMarks(operation) {
    if (operation === 'site')
        return ['site'];
    if (operation === 'docs')
        return ['docs-page'];
    if (operation.startsWith('idp-'))
        return ['sso-idp'];
    return [];
}
/** Real paths without an emulation: where a public source shows them, and why they are not emulated. */
const NOT_EMULATED = [
    {
        method: 'PUT',
        path: '/v3/environments/{id}',
        source: 'public facts: an environment is marked as Acceptance with a PUT on environments',
        why: 'its request body is not public'
    },
    {
        method: 'GET',
        path: '/api/v2/suggest/',
        source: "@bloomreach/discovery-web-sdk 2.0.1: autoSuggest's default endpoint https://suggest.dxpapi.com/api/v2/suggest/",
        why: 'another host and another API; its answer is not in the specification'
    },
    {
        method: 'OPTIONS',
        path: '/api/v1/core/',
        source: "a browser's CORS preflight: Bloomreach's search widget (discovery-connector-sdk) sends its search GET with Content-Type: application/json, which a browser asks about first",
        why: 'which origins, methods and headers the service allows is not public (nor are the CORS headers of its answers)'
    },
    {
        method: 'GET',
        path: '/api/v2/widgets/{type}/{id}',
        source: "@bloomreach/discovery-web-sdk 2.0.1: the recommendation widgets' endpoint https://pathways.dxpapi.com/api/v2/widgets/",
        why: 'another host and another API; its answer is not in the specification'
    }
];
const router = new Router([
    {
        name: 'not-emulated',
        routes: NOT_EMULATED.map(({ method, path }) => ({ method, path, operation: 'not-emulated', handler: () => undefined }))
    }
]);
/** Whether `method pathname` is a real path this emulator does not stand in for. */
function isNotEmulated(method, pathname) {
    return router.match(method, pathname).kind === 'route';
}
/** The 501 body of a path that is not emulated; it names the call. */
function notEmulatedBody(method, pathname) {
    return { error_code: 'NotEmulated', error_detail: `${method} ${pathname} exists on the real service but is not emulated here` };
}

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: ./src/emulator/test-hooks.ts
// What a test does to the emulated stack from outside the API: deploy or delete as someone else, store
// someone else's distribution, rename or delete an environment mid-run, and act right after a given
// request (e.g. deploy while the client follows).









const run = (0,external_node_util_namespaceObject.promisify)(external_node_child_process_namespaceObject.execFile);
/**
 * Starts a deploy that someone else asked for, by the same rules as the API's: while the environment is
 * busy it throws (the API's 409), or with `deployWhileBusy: 'accept'` replaces the switch in progress. It
 * takes `seconds` and `looks` (startDeploy); given neither, the stack's deploySeconds and deployLooks, given
 * one, that one alone.
 */
function deployAs(state, environmentName, distributionId, options = {}) {
    const env = state.environments.find((e) => e.name === environmentName);
    if (env === undefined)
        throw new Error(`deployAs: no environment named "${environmentName}"`);
    const dist = findDistribution(state, distributionId);
    if (dist === undefined)
        throw new Error(`deployAs: no distribution with id "${distributionId}"`);
    if (refusesDeployWhileBusy(state, env))
        throw new Error(`deployAs: environment "${environmentName}" is still deploying`);
    const deployment = {
        distributionId: dist.id,
        strategy: 'stopstart',
        appConfigFileRoles: [],
        requestedAt: platformNow(state),
        appliedAt: null,
        by: options.by ?? 'someone-else'
    };
    const own = options.seconds !== undefined || options.looks !== undefined;
    startDeploy(state, env, deployment, own ? { seconds: options.seconds ?? 0, looks: options.looks ?? 0 } : {});
}
/** Lands the switch in progress on an environment now, whatever it waited for: the test decides when a deploy is done. */
function finishDeploy(state, environmentName) {
    const env = state.environments.find((e) => e.name === environmentName);
    if (env === undefined)
        throw new Error(`finishDeploy: no environment named "${environmentName}"`);
    const landing = state.landings.get(env);
    if (landing === undefined)
        throw new Error(`finishDeploy: no deploy in progress on "${environmentName}"`);
    landing.land();
}
/** Someone else renames an environment (in Mission Control, say): the same id under a new name. */
function renameEnvironment(state, from, to) {
    const env = state.environments.find((e) => e.name === from);
    if (env === undefined)
        throw new Error(`renameEnvironment: no environment named "${from}"`);
    if (to === '')
        throw new Error('renameEnvironment: the new name is empty');
    if (to !== from && state.environments.some((e) => e.name === to))
        throw new Error(`renameEnvironment: an environment named "${to}" exists`);
    env.name = to;
}
/**
 * Someone else deletes an environment: it leaves the lists and every lookup (by name, by id, its site), a
 * switch it was making is abandoned (its timer cleared), and what it ran is no longer in use. Its backups
 * stay listed (what the platform does with them is not public).
 */
function deleteEnvironment(state, name) {
    const index = state.environments.findIndex((e) => e.name === name);
    const env = state.environments[index];
    if (env === undefined)
        throw new Error(`deleteEnvironment: no environment named "${name}"`);
    abandonSwitch(state, env);
    state.environments.splice(index, 1);
}
/**
 * Sets the backups the platform lists for an environment: one per age, taken that many hours ago by the platform's
 * clock (the fake one in the simulation; fractions allowed); [] lists none. The others' backups stay as they are.
 */
function setBackups(state, environmentName, agesInHours) {
    const env = state.environments.find((e) => e.name === environmentName);
    if (env === undefined)
        throw new Error(`setBackups: no environment named "${environmentName}"`);
    const bad = agesInHours.find((age) => !Number.isFinite(age) || age < 0);
    if (bad !== undefined)
        throw new Error(`setBackups: an age must be a number of hours, 0 or more (got ${bad})`);
    // In place: the emulator's handle shares this list.
    for (let i = state.backups.length - 1; i >= 0; i--)
        if (state.backups[i].environmentId === env.id)
            state.backups.splice(i, 1);
    state.backups.push(...agesInHours.map((age, i) => setBackup(env, i, platformHoursAgo(state, age))));
}
/** Someone else deletes a distribution, by the same rules as the API's DELETE (404 unknown, 409 in use unless deleteInUse allows). */
async function deleteAs(state, distributionId) {
    try {
        await deleteDistribution(state, distributionId);
    }
    catch (err) {
        if (err instanceof HttpError)
            throw new Error(`deleteAs: ${err.detail} (${err.status} ${err.code})`, { cause: err });
        throw err;
    }
}
/** A real tar.gz made by GNU tar from `files`, stored as if someone else had uploaded it. */
async function addDistribution(state, name, files) {
    const tree = await (0,promises_namespaceObject.mkdtemp)((0,external_node_path_namespaceObject.join)((0,external_node_os_namespaceObject.tmpdir)(), 'brcloud-emulator-tree-'));
    try {
        for (const [path, content] of Object.entries(files)) {
            await (0,promises_namespaceObject.mkdir)((0,external_node_path_namespaceObject.dirname)((0,external_node_path_namespaceObject.join)(tree, path)), { recursive: true });
            await (0,promises_namespaceObject.writeFile)((0,external_node_path_namespaceObject.join)(tree, path), content);
        }
        const id = (0,external_node_crypto_namespaceObject.randomUUID)();
        const path = (0,external_node_path_namespaceObject.join)(state.settings.storageDir, `${id}.tar.gz`);
        await run('tar', ['-czf', path, '-C', tree, '.']);
        const bytes = await (0,promises_namespaceObject.readFile)(path);
        const now = platformNow(state);
        state.distributions.push({
            id,
            name,
            createdAt: now,
            createdBy: 'someone-else',
            modifiedAt: now,
            modifiedBy: 'someone-else',
            md5hash: (0,external_node_crypto_namespaceObject.createHash)('md5').update(bytes).digest('hex'),
            sha256: (0,external_node_crypto_namespaceObject.createHash)('sha256').update(bytes).digest('hex'),
            size: bytes.length,
            path
        });
        return id;
    }
    finally {
        await (0,promises_namespaceObject.rm)(tree, { recursive: true, force: true });
    }
}
/** Callbacks run after a request of an operation was answered or dropped, and requests held before they are handled. */
class RequestHooks {
    hooks = [];
    holds = [];
    /**
     * Holds the next `times` requests of `operation` (default 1, after letting `skip` through) until `until` settles,
     * then handles them as usual: a slow network, so that a test can put another process's events first. `onHeld` is
     * called as each is held: an event of the other process (it sent the request) the test can act on.
     */
    hold(operation, until, options = {}) {
        this.holds.push({ operation, until, times: options.times ?? 1, skip: options.skip ?? 0, onHeld: options.onHeld });
    }
    /** What a request of `operation` waits for before it is handled (using up one of a hold's times), or undefined. */
    held(operation) {
        const hold = this.holds.find((h) => h.operation === operation && h.times > 0);
        if (hold === undefined)
            return undefined;
        if (hold.skip > 0) {
            hold.skip--;
            return undefined;
        }
        hold.times--;
        hold.onHeld?.();
        return hold.until.then(() => undefined, () => undefined);
    }
    add(operation, fn, options = {}) {
        this.hooks.push({ operation, fn, times: options.times ?? 1, skip: options.skip ?? 0 });
    }
    /** Called once per request when its connection is done with it. */
    after(record) {
        for (const hook of this.hooks) {
            if (hook.operation !== record.operation || hook.times <= 0)
                continue;
            if (hook.skip > 0) {
                hook.skip--;
                continue;
            }
            hook.times--;
            hook.fn(record);
        }
    }
}

;// CONCATENATED MODULE: ./src/emulator/jwt.ts
// Minimal HS256 JSON Web Tokens (RFC 7519) with node:crypto only.

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
function base64url(text) {
    return Buffer.from(text).toString('base64url');
}
function sign(data, secret) {
    return (0,external_node_crypto_namespaceObject.createHmac)('sha256', secret).update(data).digest();
}
function jwt_signJwt(payload, secret) {
    const body = `${HEADER}.${base64url(JSON.stringify(payload))}`;
    return `${body}.${sign(body, secret).toString('base64url')}`;
}
function isPayload(value) {
    if (typeof value !== 'object' || value === null)
        return false;
    const p = value;
    return (typeof p.sub === 'string' &&
        typeof p.iat === 'number' &&
        typeof p.exp === 'number' &&
        typeof p.jti === 'string' &&
        (p.typ === 'access' || p.typ === 'refresh'));
}
/** Checks structure, algorithm, signature and `exp` (seconds since the epoch) against `nowMs`. */
function jwt_verifyJwt(token, secret, nowMs = Date.now()) {
    const pieces = token.split('.');
    if (pieces.length !== 3)
        return { ok: false, reason: 'malformed' };
    const [header, body, signature] = pieces;
    let payload;
    try {
        const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
        if (h.alg !== 'HS256')
            return { ok: false, reason: 'malformed' };
        payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    }
    catch {
        return { ok: false, reason: 'malformed' };
    }
    const expected = sign(`${header}.${body}`, secret);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !(0,external_node_crypto_namespaceObject.timingSafeEqual)(given, expected))
        return { ok: false, reason: 'signature' };
    if (!isPayload(payload))
        return { ok: false, reason: 'malformed' };
    if (nowMs >= payload.exp * 1000)
        return { ok: false, reason: 'expired' };
    return { ok: true, payload };
}

;// CONCATENATED MODULE: ./src/emulator/tokens.ts
// Issues, checks and revokes the emulator's access and refresh tokens (JWTs signed with a per-process secret).


/** The password login's access tokens as the cloud API's. */
function passwordAccess(tokens) {
    return {
        refusal: 'Unauthorized',
        check: (token) => tokens.check('access', token),
        revokeAll: (sub) => tokens.revokeAccessTokens(sub)
    };
}
class TokenService {
    accessLifetimeSeconds;
    refreshLifetimeSeconds;
    accessSkewSeconds;
    secret = (0,external_node_crypto_namespaceObject.randomBytes)(32);
    live = { access: new Map(), refresh: new Map() };
    constructor(accessLifetimeSeconds, refreshLifetimeSeconds, 
    /** How long past its `exp` an access token is still accepted (clock skew allowed). */
    accessSkewSeconds = 0) {
        this.accessLifetimeSeconds = accessLifetimeSeconds;
        this.refreshLifetimeSeconds = refreshLifetimeSeconds;
        this.accessSkewSeconds = accessSkewSeconds;
    }
    issue(typ, sub) {
        const now = Date.now();
        const lifetime = typ === 'access' ? this.accessLifetimeSeconds : this.refreshLifetimeSeconds;
        // Whole seconds, as real servers write them, and truthful: the token dies exactly at `exp` (unless a
        // skew is allowed), so exp - iat is its lifetime (it may live up to a second less than that after the call returns).
        const iat = Math.floor(now / 1000);
        const exp = iat + lifetime;
        const jti = (0,external_node_crypto_namespaceObject.randomUUID)();
        this.prune(now);
        this.live[typ].set(jti, { sub, expiresAtMs: exp * 1000 + this.skewMs(typ) });
        return jwt_signJwt({ sub, iat, exp, jti, typ }, this.secret);
    }
    check(typ, token) {
        const now = Date.now();
        // An access token past its exp within the allowed skew is read as if the clock were that much behind.
        const result = jwt_verifyJwt(token, this.secret, now - this.skewMs(typ));
        if (!result.ok) {
            const detail = { malformed: 'The token is malformed', signature: 'The token signature is invalid', expired: 'The token has expired' };
            return { ok: false, detail: detail[result.reason] };
        }
        const { payload } = result;
        if (payload.typ !== typ)
            return { ok: false, detail: `The token is not ${typ === 'access' ? 'an access' : 'a refresh'} token` };
        const issued = this.live[typ].get(payload.jti);
        if (issued === undefined)
            return { ok: false, detail: 'The token has been revoked' };
        if (now >= issued.expiresAtMs)
            return { ok: false, detail: 'The token has expired' };
        return { ok: true, sub: payload.sub, jti: payload.jti };
    }
    skewMs(typ) {
        return typ === 'access' ? this.accessSkewSeconds * 1000 : 0;
    }
    revoke(typ, jti) {
        this.live[typ].delete(jti);
    }
    /** Revokes every access token issued so far, or only those of `sub`. Refresh tokens stay valid. */
    revokeAccessTokens(sub) {
        for (const [jti, issued] of this.live.access) {
            if (sub === undefined || issued.sub === sub)
                this.live.access.delete(jti);
        }
    }
    prune(now) {
        for (const map of [this.live.access, this.live.refresh]) {
            for (const [jti, issued] of map)
                if (now >= issued.expiresAtMs)
                    map.delete(jti);
        }
    }
}

;// CONCATENATED MODULE: ./src/emulator/stack.ts















const DEFAULTS = {
    host: '127.0.0.1',
    username: 'deployer',
    password: 'emulator-password',
    tokenLifetimeSeconds: 600,
    refreshLifetimeSeconds: 86400,
    tokenClockSkewSeconds: 0,
    maxDistributionBytes: 650 * 1024 * 1024,
    maxDistributions: 100,
    environments: ['development', 'acceptance', 'production'],
    maxEnvironments: 4,
    /** No cap: a page holds what `max` asks (100 by default, as the API reference shows). */
    distributionPageSize: Number.MAX_SAFE_INTEGER,
    deploySeconds: 0,
    deployLooks: 0,
    appConfigFiles: [],
    sso: SSO_DEFAULTS
};
/** Bodies of faulted calls are kept (to record their JSON) up to this size, then only drained. */
const RECORD_LIMIT = 1024 * 1024;
function headersOf(req) {
    const out = {};
    for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined)
            out[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return out;
}
/** A body as the record keeps it: JSON, or a form (the identity provider's calls) decoded into an object. */
function recordedBody(req, body) {
    if (/^\s*application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) {
        return { ok: true, value: Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
    }
    return parseJson(body);
}
/** Reads the whole body, recording it as JSON when it parses as JSON (or a form); never leaves the stream early. */
async function consumeForRecord(req, record) {
    const keep = !/^\s*multipart\//i.test(req.headers['content-type'] ?? '');
    const chunks = [];
    let size = 0;
    try {
        for await (const chunk of req) {
            size += chunk.length;
            if (keep && size <= RECORD_LIMIT)
                chunks.push(chunk);
        }
    }
    catch {
        return; // the client went away
    }
    if (keep && size > 0 && size <= RECORD_LIMIT) {
        const parsed = recordedBody(req, Buffer.concat(chunks));
        if (parsed.ok)
            record.json = parsed.value;
    }
}
/** Reads `afterBytes` of the body (or all of it when shorter), then destroys the connection. */
async function resetAfter(req, afterBytes) {
    const socket = req.socket;
    let seen = 0;
    if (afterBytes > 0) {
        try {
            for await (const chunk of req) {
                seen += chunk.length;
                if (seen >= afterBytes)
                    break;
            }
        }
        catch {
            // already gone
        }
    }
    socket.destroy();
}
/** Resolves on 'drain' or 'close', removing both listeners (one pair per wait, none left behind). */
function drainedOrClosed(res) {
    return new Promise((resume) => {
        const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resume();
        };
        res.on('drain', done);
        res.on('close', done);
    });
}
/** A request target for the log: the search auth_key (a credential sent in the query string) masked. */
function loggedUrl(url) {
    return url.replace(/([?&]auth_key=)[^&]*/gi, '$1***');
}
/** Each service's error body: the search API's, the identity provider's (RFC 6749 5.2), GitHub's, or the cloud API's. */
function errorShape(pathname, status, code, detail) {
    if (pathname.startsWith('/api/'))
        return { status_code: status, message: detail };
    if (pathname.startsWith(`${IDP_PATH}/`))
        return { error: code, error_description: detail };
    if (pathname.startsWith(`${OIDC_PATH}/`))
        return { message: detail };
    return errorBody(code, detail);
}
/** A 'status' fault's code: the identity provider's for its calls (RFC 6749 has no code for a 5xx, these are the usual ones). */
function faultCode(operation, status) {
    if (!operation.startsWith('idp-'))
        return codeForStatus(status);
    return status === 503 ? 'temporarily_unavailable' : 'server_error';
}
/** The stack's settings: each option given, else the platform's default (or the emulator's reading of it). */
function settingsOf(options, storageDir) {
    return {
        username: options.username ?? DEFAULTS.username,
        password: options.password ?? DEFAULTS.password,
        maxDistributionBytes: options.maxDistributionBytes ?? DEFAULTS.maxDistributionBytes,
        maxDistributions: options.maxDistributions ?? DEFAULTS.maxDistributions,
        keepUploads: options.keepUploads ?? true,
        storageDir,
        uploadBytesPerSecond: options.uploadBytesPerSecond,
        distributionPageSize: options.distributionPageSize ?? DEFAULTS.distributionPageSize,
        environmentPageSize: options.environmentPageSize ?? Number.MAX_SAFE_INTEGER,
        environmentOffsetIgnored: options.environmentOffsetIgnored ?? false,
        uploadAnswer: options.uploadAnswer ?? 'record',
        deploySeconds: options.deploySeconds ?? DEFAULTS.deploySeconds,
        deployWhileBusy: options.deployWhileBusy ?? 'refuse',
        deployLooks: options.deployLooks ?? DEFAULTS.deployLooks,
        deployReport: options.deployReport ?? 'when-done',
        siteDuringDeploy: options.siteDuringDeploy ?? (options.deployReport === 'at-request' ? 'old' : 'unavailable'),
        environmentStatus: options.environmentStatus ?? true,
        md5Case: options.md5Case ?? 'lower',
        clockOffsetSeconds: options.clockOffsetSeconds ?? 0,
        idCase: options.idCase ?? 'as-stored',
        idWhileDeploying: options.idWhileDeploying ?? 'reported',
        deleteInUse: options.deleteInUse ?? 'refuse',
        unknownEnvironmentByName: options.unknownEnvironmentByName ?? 'not-found',
        passwordLogin: 'enabled'
    };
}
/** The platform's state as the stack starts: its environments, files, a backup of each, password login. Throws on too many environments. */
function initialState(options, storageDir, refreshSeconds, skewSeconds) {
    const environmentNames = options.environments ?? DEFAULTS.environments;
    const maxEnvironments = options.maxEnvironments ?? DEFAULTS.maxEnvironments;
    if (environmentNames.length > maxEnvironments) {
        throw new Error(`The platform allows at most ${maxEnvironments} environments per stack, ${environmentNames.length} were asked for (raise maxEnvironments)`);
    }
    const tokens = new TokenService(options.tokenLifetimeSeconds ?? DEFAULTS.tokenLifetimeSeconds, refreshSeconds, skewSeconds);
    const state = {
        settings: settingsOf(options, storageDir),
        tokens,
        access: passwordAccess(tokens),
        distributions: [],
        environments: environmentNames.map(newEnvironment),
        appConfigFiles: (options.appConfigFiles ?? DEFAULTS.appConfigFiles).map(newAppConfigFile),
        backups: [],
        switches: new Set(),
        landings: new Map()
    };
    // One backup per environment, taken as the stack starts (by the platform's clock; backupAgeHours earlier), so a backup
    // tool has one to find; none with noBackups.
    const taken = platformHoursAgo(state, options.backupAgeHours ?? 0);
    if (options.noBackups !== true)
        state.backups.push(...state.environments.map((e) => newBackup(e, taken)));
    return state;
}
/** The search API's settings: each option given, else the search API's default. */
function searchStateOf(options) {
    return newSearchState({
        ...(options.searchAccountId !== undefined && { accountId: options.searchAccountId }),
        ...(options.searchAuthKey !== undefined && { authKey: options.searchAuthKey }),
        ...(options.searchDomainKey !== undefined && { domainKey: options.searchDomainKey }),
        ...(options.searchFacetFormat !== undefined && { facetFormat: options.searchFacetFormat }),
        ...(options.searchDelayMs !== undefined && { delayMs: options.searchDelayMs }),
        ...(options.searchEmptyAuthKey !== undefined && { emptyAuthKey: options.searchEmptyAuthKey })
    });
}
/** Every service's routes: the cloud API (its docs page lists the others' cloud paths too), backups, search, sites, single sign-on. */
function routerOf(state, search, sso) {
    const sites = sitesApi(state);
    const backups = backupsApi(state);
    const ssoRoutes = sso?.module.routes ?? [];
    return new Router([
        cloudApi(state, [...backups.routes, ...sites.routes, ...ssoRoutes]),
        backups,
        searchApi(search),
        sites,
        ...(sso === undefined ? [] : [sso.module])
    ]);
}
/** The stack of `options`, its uploads stored in `storageDir`. Throws on more environments than the platform allows. */
function createStack(options, storageDir) {
    const refreshSeconds = options.refreshLifetimeSeconds ?? DEFAULTS.refreshLifetimeSeconds;
    const skewSeconds = options.tokenClockSkewSeconds ?? DEFAULTS.tokenClockSkewSeconds;
    const state = initialState(options, storageDir, refreshSeconds, skewSeconds);
    const faults = new FaultQueue(options.faults);
    const hooks = new RequestHooks();
    const requests = [];
    const search = searchStateOf(options);
    const sso = options.sso === undefined ? undefined : createSso(options.sso, state.settings, refreshSeconds, skewSeconds);
    if (sso !== undefined) {
        state.settings.passwordLogin = sso.options.passwordLogin;
        state.access = sso.access;
    }
    const handling = { state, faults, hooks, requests, router: routerOf(state, search, sso), log: options.log };
    return { state, faults, hooks, requests, search, sso, handle: (req, res) => handle(handling, req, res) };
}
/** Answers one request: recorded, routed, held or faulted as a test asks, handled; an error answered in its service's shape. */
async function handle(stack, req, res) {
    const started = performance.now();
    const socket = req.socket; // req.socket is cleared once the request is destroyed
    const record = recordOf(req);
    stack.requests.push(record);
    res.on('finish', () => (record.status = res.statusCode));
    res.on('close', () => {
        logAnswered(stack.log, record, Math.round(performance.now() - started));
        stack.hooks.after(record);
    });
    const reply = new Reply(req, res);
    const ctx = reply.context(record);
    try {
        await answer(stack, ctx, reply);
    }
    catch (err) {
        if (socket.destroyed || res.headersSent)
            return;
        answerError(stack.log, ctx, err);
    }
}
/** A request as the record first holds it: no operation, no status yet. */
function recordOf(req) {
    return {
        operation: 'unknown',
        method: req.method ?? '',
        url: req.url ?? '',
        httpVersion: req.httpVersion,
        remotePort: req.socket.remotePort,
        headers: headersOf(req),
        at: Date.now(),
        status: 0
    };
}
/** The log's line of an answered (or dropped) request: its status, time, fault and warning. */
function logAnswered(log, record, ms) {
    const status = record.status === 0 ? 'no-answer' : String(record.status);
    const fault = record.fault === undefined ? '' : ` [fault: ${record.fault}]`;
    const note = record.note === undefined ? '' : ` [warning: ${record.note}]`;
    log?.(`${record.method} ${loggedUrl(record.url)} ${status} ${ms}ms${fault}${note}`);
}
/** Routes the request and answers it: its route's handler, unless a fault a test asked for answers instead. */
async function answer(stack, ctx, reply) {
    const { req, record } = ctx;
    try {
        ctx.url = new URL(req.url ?? '/', 'http://emulator.invalid');
    }
    catch {
        throw new HttpError(400, 'InvalidRequest', 'The request target is not a valid path');
    }
    const match = stack.router.match(req.method ?? '', ctx.url.pathname);
    if (match.kind !== 'route')
        return answerUnrouted(ctx, match);
    record.operation = match.route.operation;
    ctx.params = match.params;
    ctx.invent(...operationMarks(match.route.operation));
    // A test holding this operation (a slow network): handled once it lets go.
    const held = stack.hooks.held(match.route.operation);
    if (held !== undefined)
        await held;
    const fault = stack.faults.take(match.route.operation);
    if (fault !== undefined && (await applyFault(stack, ctx, reply, fault)) === 'answered')
        return;
    await match.route.handler(ctx);
}
/** A path no route takes: 501 for a real path the emulator does not emulate, else 404 or 405. */
async function answerUnrouted(ctx, match) {
    const method = ctx.req.method ?? '';
    const { pathname } = ctx.url;
    // A real path without an emulation says so (501), rather than a 404 that looks like a genuine miss.
    if (isNotEmulated(method, pathname)) {
        ctx.record.operation = 'not-emulated';
        await consumeForRecord(ctx.req, ctx.record);
        ctx.invent('not-emulated');
        ctx.send(501, notEmulatedBody(method, pathname));
        return;
    }
    if (match.kind === 'trailing-slash')
        throw new HttpError(404, 'TrailingSlash', `Paths must not end with a slash: "${pathname}"`);
    if (match.kind === 'not-found')
        throw new HttpError(404, 'NotFound', `No operation at "${pathname}"`);
    throw new HttpError(405, 'MethodNotAllowed', `${method} is not allowed on "${pathname}"`, { allow: match.allow.join(', ') });
}
/** A fault a test asked for: either it answers (or never does) in place of the handler, or it shapes how the handler's call ends. */
async function applyFault(stack, ctx, reply, fault) {
    ctx.record.fault = fault.kind;
    // An answer the test asked for, not the platform's.
    if (fault.kind === 'status' || fault.kind === 'apply-then-status')
        ctx.invent('fault');
    switch (fault.kind) {
        case 'status':
            await answerFaultStatus(ctx, reply, fault);
            return 'answered';
        case 'revoke-tokens':
            // Every access token issued so far dies just before this call is handled.
            stack.state.access.revokeAll();
            return 'handle';
        case 'hang':
            await consumeForRecord(ctx.req, ctx.record); // and never answer: the socket stays open until close()
            return 'answered';
        case 'reset-mid-upload':
            await resetAfter(ctx.req, fault.afterBytes ?? 0);
            return 'answered';
        case 'drop-after-upload':
        case 'drop-after-apply':
            reply.drop = true;
            return 'handle';
        case 'apply-then-status':
            stack.faults.answerStatusAfterApply(ctx, fault);
            return 'handle';
        case 'apply-then-delay':
            stack.faults.answerLateAfterApply(ctx, fault);
            return 'handle';
    }
}
/** A 'status' fault's answer, in the service's error shape; with `echo`, what the request sent (a server that leaks it). */
async function answerFaultStatus(ctx, reply, fault) {
    const { req, record } = ctx;
    await consumeForRecord(req, record);
    const status = fault.status ?? 503;
    const headers = {};
    if (fault.retryAfterSeconds !== undefined)
        headers['retry-after'] = String(fault.retryAfterSeconds);
    if (fault.location !== undefined)
        headers.location = fault.location;
    if (fault.echo !== undefined) {
        const echoed = `Request was: authorization=${req.headers.authorization ?? ''} body=${JSON.stringify(record.json ?? null)}`;
        if (fault.echo === 'json')
            ctx.send(status, errorShape(ctx.url.pathname, status, faultCode(fault.operation, status), echoed), headers);
        else
            ctx.res.writeHead(status, reply.marked({ ...headers, 'content-type': 'text/plain' })).end(echoed);
        return;
    }
    ctx.send(status, errorShape(ctx.url.pathname, status, faultCode(fault.operation, status), `Emulated fault on ${fault.operation}`), headers);
}
/** A refusal (HttpError) in its service's error shape; anything else is the emulator's own failure, a 500 that closes. */
function answerError(log, ctx, err) {
    if (err instanceof HttpError) {
        const headers = err.closeConnection ? { ...err.headers, connection: 'close' } : err.headers;
        ctx.invent(...errorMarks(ctx.url.pathname, err.status, err.code));
        // A refusal answered before the body was read (a 413 on the declared length): the rest of the body is read
        // and dropped before the connection closes, as a front end's lingering close does (nginx's default). Closed
        // with the body unread, the socket would be reset, and a client still sending would see the reset, not the answer.
        if (err.closeConnection)
            ctx.req.resume();
        // Each service's paths answer in its own error shape, even for a path it does not have.
        ctx.send(err.status, errorShape(ctx.url.pathname, err.status, err.code, err.detail), headers);
    }
    else {
        log?.(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        ctx.invent('status-500', 'error-code');
        ctx.send(500, errorBody('InternalError', 'The emulator failed to handle the request'), { connection: 'close' });
    }
}
/**
 * One request's answer: the marks of what in it is invented, and the ways to send it. Sends nothing once an answer
 * has started; once a fault said drop, destroys the connection instead of answering.
 */
class Reply {
    req;
    res;
    /** A 'drop-after-upload' or 'drop-after-apply' fault: the call is carried out, its answer never sent. */
    drop = false;
    invented = new Set();
    socket;
    constructor(req, res) {
        this.req = req;
        this.res = res;
        this.socket = req.socket;
    }
    /** The handlers' view of the request and its answer. */
    context(record) {
        return {
            req: this.req,
            res: this.res,
            url: new URL('http://emulator.invalid/'),
            params: {},
            record,
            invent: (...names) => {
                for (const name of names)
                    this.invented.add(name);
            },
            send: (status, body, headers) => this.send(status, body, headers),
            sendText: (status, contentType, text, headers) => this.sendText(status, contentType, text, headers),
            sendStream: (status, headers, length, body) => this.sendStream(status, headers, length, body)
        };
    }
    /** The answer's headers, with the marks of what in it is invented. */
    marked(headers) {
        return this.invented.size === 0 ? headers : { ...headers, [INVENTED_HEADER]: [...this.invented].join(', ') };
    }
    /** Whether an answer may start now: not when one has, and not when a fault said drop (the connection is destroyed). */
    mayAnswer() {
        if (this.res.headersSent || this.res.writableEnded)
            return false;
        if (this.drop) {
            this.socket.destroy();
            return false;
        }
        return true;
    }
    send(status, body, headers = {}) {
        if (!this.mayAnswer())
            return;
        const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
        const h = this.marked({ ...headers });
        if (payload !== undefined) {
            h['content-type'] = 'application/json';
            h['content-length'] = payload.length;
        }
        this.res.writeHead(status, h);
        if (h.connection === 'close' && this.req.complete === false)
            return lingerThenEnd(this.req, this.res, payload);
        this.res.end(payload);
    }
    sendText(status, contentType, text, headers = {}) {
        if (!this.mayAnswer())
            return;
        const payload = Buffer.from(text);
        this.res.writeHead(status, this.marked({ ...headers, 'content-type': contentType, 'content-length': payload.length }));
        this.res.end(payload);
    }
    async sendStream(status, headers, length, body) {
        if (!this.mayAnswer())
            return;
        const { req, res, socket } = this;
        res.writeHead(status, this.marked({ ...headers, 'content-length': length }));
        if (req.method === 'HEAD') {
            res.end(); // the generator never started, so nothing was opened
            return;
        }
        let sent = 0;
        try {
            for await (const chunk of body) {
                sent += chunk.length;
                // Wait for the client to read on, or for the connection to close (then stop reading the archive).
                if (!res.write(chunk))
                    await drainedOrClosed(res);
                if (res.destroyed)
                    return;
            }
        }
        catch (err) {
            // The answer has started: cut the connection so the client sees it was incomplete.
            socket.destroy();
            throw err;
        }
        if (sent !== length) {
            socket.destroy();
            throw new Error(`sendStream: ${sent} bytes sent, ${length} announced`);
        }
        res.end();
    }
}
/** nginx's lingering_time: how long a refused body is still read before the connection closes anyway. */
const LINGER_MS = 30_000;
/**
 * A refusal answered before the request's body was in (a 413 on its declared length): the whole answer is sent at
 * once, but the connection closes only once the client's body was read and dropped, as a front end's lingering close
 * does. Closed earlier, the socket would be reset under a client still sending, which would see the reset, not the answer.
 */
function lingerThenEnd(req, res, payload) {
    if (payload !== undefined)
        res.write(payload);
    const end = () => {
        clearTimeout(timer);
        if (!res.writableEnded)
            res.end();
    };
    const timer = setTimeout(end, LINGER_MS);
    timer.unref();
    req.once('end', end);
    req.once('close', end);
    req.resume();
}

;// CONCATENATED MODULE: ./src/emulator/listen.ts
// A request handler served over HTTP/1.1: what the platform emulator and the code hosts' stand-ins share to listen,
// to name their own address, and to close with every connection (a keep-alive socket, or a call held by a hang,
// would hold close() open).

/** The host of a server's own URL: a wildcard address is reached on loopback, an IPv6 one in brackets. */
function urlHost(address) {
    if (address === '0.0.0.0')
        return '127.0.0.1';
    if (address === '::')
        return '[::1]';
    return address.includes(':') ? `[${address}]` : address;
}
/** Listens on `host:port` (0: any free port); a handler that throws ends its connection. */
async function serve(handle, port = 0, host = '127.0.0.1') {
    const server = (0,external_node_http_namespaceObject.createServer)((req, res) => {
        void handle(req, res).catch(() => res.destroy());
    });
    await new Promise((listening, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            server.off('error', reject);
            listening();
        });
    });
    const address = server.address();
    let closing;
    return {
        url: `http://${urlHost(address.address)}:${address.port}`,
        close() {
            closing ??= new Promise((done) => {
                server.close(() => done());
                server.closeAllConnections();
            });
            return closing;
        }
    };
}

;// CONCATENATED MODULE: ./src/emulator/server.ts
// Local emulator of both services the action talks to, on one port: the Bloomreach Cloud deployment
// management API (/v3/..., cloud-api.ts) and the product search API (/api/v1/core/, search-api.ts).
// A real HTTP/1.1 server (node:http) that records every request, stores uploads, and can inject
// faults. Used by `npm run emulator`, the demo and the tests. It shares no code with the action.
// What the stack does is stack.ts; this file only listens, keeps the sockets and closes.








/** Where uploads are kept: the folder asked for (made if missing), else a temporary one the emulator owns and removes. */
async function storageOf(options) {
    const ownsStorage = options.storageDir === undefined;
    const storageDir = options.storageDir === undefined ? await (0,promises_namespaceObject.mkdtemp)((0,external_node_path_namespaceObject.join)((0,external_node_os_namespaceObject.tmpdir)(), 'brcloud-emulator-')) : (0,external_node_path_namespaceObject.resolve)(options.storageDir);
    if (!ownsStorage)
        await (0,promises_namespaceObject.mkdir)(storageDir, { recursive: true });
    return { storageDir, ownsStorage };
}
/** The stack's handler served over HTTP/1.1, listening; `sockets` are its open connections (close() ends them). */
async function listen(handle, options) {
    // maxHeaderSize above Node's 16 KB: the search API answers its own 414 to a request over 16 KB.
    const server = (0,external_node_http_namespaceObject.createServer)({ requestTimeout: 0, headersTimeout: 120_000, keepAliveTimeout: 65_000, maxHeaderSize: 64 * 1024 }, (req, res) => {
        const socket = req.socket;
        void handle(req, res).catch(() => socket.destroy());
    });
    server.requestTimeout = 0; // long uploads must not be cut after Node's default 300 s
    server.headersTimeout = 120_000;
    server.timeout = 0;
    const sockets = new Set();
    server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
    });
    server.on('clientError', (_err, socket) => {
        if (socket.writable)
            socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        else
            socket.destroy();
    });
    await new Promise((resolveListen, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 0, options.host ?? DEFAULTS.host, () => {
            server.off('error', reject);
            resolveListen();
        });
    });
    const address = server.address();
    return { server, sockets, url: `http://${urlHost(address.address)}:${address.port}` };
}
/** Stops once, however often called: switches cancelled, held calls let go, every connection ended, owned storage removed. */
function closerOf({ state, faults }, { server, sockets }, { storageDir, ownsStorage }) {
    let closing;
    return () => {
        closing ??= (async () => {
            for (const timer of state.switches)
                clearTimeout(timer);
            state.switches.clear();
            state.landings.clear();
            faults.cancelHeld();
            const closed = new Promise((done) => server.close(() => done()));
            server.closeAllConnections();
            for (const socket of sockets)
                socket.destroy();
            await closed;
            if (ownsStorage)
                await (0,promises_namespaceObject.rm)(storageDir, { recursive: true, force: true });
        })();
        return closing;
    };
}
/** What a test holds of the running emulator: its address and account, the record, the stored state, and its hooks. */
function emulatorOf({ state, faults, hooks, requests, search, sso }, url, close) {
    return {
        url,
        username: state.settings.username,
        password: state.settings.password,
        requests,
        distributions: state.distributions,
        environments: state.environments,
        appConfigFiles: state.appConfigFiles,
        backups: state.backups,
        search: search.settings,
        ...(sso !== undefined && { sso: sso.handle(url) }),
        revokeAccessTokens: () => state.access.revokeAll(),
        addFault: (f) => faults.add(f),
        deployAs: (environmentName, distributionId, deployOptions) => deployAs(state, environmentName, distributionId, deployOptions),
        deleteAs: (distributionId) => deleteAs(state, distributionId),
        renameEnvironment: (from, to) => renameEnvironment(state, from, to),
        deleteEnvironment: (name) => deleteEnvironment(state, name),
        addDistribution: (name, files) => addDistribution(state, name, files),
        onRequest: (operation, fn, hookOptions) => hooks.add(operation, fn, hookOptions),
        holdRequests: (operation, until, holdOptions) => hooks.hold(operation, until, holdOptions),
        finishDeploy: (environmentName) => finishDeploy(state, environmentName),
        setDeploySeconds: (seconds) => void (state.settings.deploySeconds = seconds),
        setBackups: (environmentName, agesInHours) => setBackups(state, environmentName, agesInHours),
        close
    };
}
async function startEmulator(options = {}) {
    const storage = await storageOf(options);
    let stack;
    try {
        stack = createStack(options, storage.storageDir);
    }
    catch (error) {
        if (storage.ownsStorage)
            await (0,promises_namespaceObject.rm)(storage.storageDir, { recursive: true, force: true });
        throw error;
    }
    const listening = await listen(stack.handle, options);
    stack.sso?.setBaseUrl(listening.url);
    return emulatorOf(stack, listening.url, closerOf(stack, listening, storage));
}

;// CONCATENATED MODULE: ./src/emulator/cli-args.ts
// Command-line flags of the emulator (`npm run emulator -- --help`, or `brcloud emulator --help`).




const DEFAULT_PORT = 4080;
/** The GitHub API stand-in's port with --github. */
const DEFAULT_GITHUB_PORT = 4081;
/** The GitLab API stand-in's port with --gitlab. */
const DEFAULT_GITLAB_PORT = 4082;
const OPERATIONS = [
    'login',
    'refresh',
    'revoke-refresh',
    'verify',
    'logout',
    'list-distributions',
    'get-distribution',
    'upload',
    'delete-distribution',
    'list-environments',
    'deploy',
    'list-appconfigfiles',
    'list-backups',
    'backup-download-link',
    'backup-file',
    'docs',
    'search',
    'site',
    'idp-discovery',
    'idp-jwks',
    'idp-token',
    'idp-revoke',
    'oidc-token',
    'oidc-discovery',
    'oidc-jwks'
];
// --help, in sections: each a block of lines, without its last newline.
const INTRO = `Local emulator of the Bloomreach Cloud deployment management API and the Bloomreach product search API (no account needed).`;
const STACK_FLAGS = `  --host HOST                  address to bind (default ${DEFAULTS.host})
  --port PORT                  port (default ${DEFAULT_PORT}; 0 = any free port)
  --username NAME              login username (default ${DEFAULTS.username})
  --password PASSWORD          login password (default ${DEFAULTS.password})
  --token-lifetime SECONDS     access token lifetime (default ${DEFAULTS.tokenLifetimeSeconds})
  --refresh-lifetime SECONDS   refresh token lifetime (default ${DEFAULTS.refreshLifetimeSeconds})
  --token-clock-skew SECONDS   accept an access token this long past its exp (default ${DEFAULTS.tokenClockSkewSeconds})
  --environments a,b,c         environment names (default ${DEFAULTS.environments.join(',')})
  --max-environments N         environments a stack may have (default ${DEFAULTS.maxEnvironments}, the platform's limit)
  --environment-page-size N    list at most N environments per page (default: all on one page)
  --environment-offset-ignored the environment list ignores offset: a client cannot page past the first page
  --distribution-page-size N   list at most N distributions per page, whatever max asks (default: no cap, 100 when max is absent)
  --upload-answer SHAPE        the upload's answer: record (default), numeric-id, no-id or empty
  --storage DIR                keep uploaded distributions in DIR (default: a temporary dir, removed on exit)
  --no-keep-uploads            only count and hash uploads, write nothing
  --max-distributions N        stored distributions allowed (default ${DEFAULTS.maxDistributions})
  --max-distribution-bytes N   largest distribution file (default ${DEFAULTS.maxDistributionBytes})
  --upload-rate BYTES_PER_SEC  read uploads at most this fast ("slow reads")`;
const DEPLOY_FLAGS = `  --deploy-seconds N           a deploy takes N seconds (fractions allowed; default ${DEFAULTS.deploySeconds}): until then the
                               environment reports its old distributionId, status "deploying", and refuses
                               another deploy (409 DeploymentInProgress; see --deploy-while-busy)
  --deploy-looks N             a deploy is reported in progress by N looks at the environment before it lands
                               (default ${DEFAULTS.deployLooks}; with --deploy-seconds, it lands when both are done)
  --deploy-while-busy refuse|accept
                               a deploy requested while the environment switches: refused with 409
                               DeploymentInProgress (default), or accepted (202), abandoning the switch in
                               progress for the new one (its own deploy time)
  --deploy-report when-done|at-request
                               when an environment reports a deploy's new distributionId: once the switch is
                               done (default), or at once while its site serves the old release until then
  --site-during-deploy unavailable|old
                               the site while switching: 503, or the old release (default: unavailable when
                               reported when done, old when reported at request)
  --no-environment-status      environments carry no "status" field (the emulator's own field)
  --md5-case lower|upper       the case of distribution records' md5hash (default lower)
  --unknown-environment-by-name not-found|no-id
                               GET /v3/environments?name=<unknown>: 404 (default), or 200 with an object without id
  --id-case as-stored|upper|upper-distributions|upper-environments|upper-by-name
                               distribution ids in answers as stored (default), in upper case everywhere, or
                               in upper case in one family of answers only: distribution records (list, one,
                               the upload's answer), environments (list, ?name=, the deploy's answer), or
                               GET /v3/environments?name= alone; with any upper case, ids in requests match
                               in any case
  --id-while-deploying reported|absent|null
                               an environment's distributionId while it deploys: as --deploy-report says (default),
                               no such field, or null
  --delete-in-use refuse|allow
                               deleting a distribution an environment runs or switches to: 409 (default), or done
  --clock-offset SECONDS       the platform's clock is SECONDS off (may be negative: --clock-offset=-90; default 0):
                               every timestamp it writes (distributions, deployments) is shifted
  --backup-age-hours N         each environment's backup was taken N hours before the emulator started (fractions
                               allowed; default 0)
  --no-backups                 GET /v3/backups lists no backup at all
  --app-config-files a,b       names of the stack's application configuration files (default none)`;
const SEARCH_FLAGS = `  --search-account-id ID       search API account_id (default ${SEARCH_API_DEFAULTS.accountId})
  --search-auth-key KEY        search API auth_key (default ${SEARCH_API_DEFAULTS.authKey})
  --search-domain-key KEY      search API domain_key (default ${SEARCH_API_DEFAULTS.domainKey})
  --search-facet-format v3|legacy
                               facet format of search answers (default ${SEARCH_API_DEFAULTS.facetFormat}; facet.version=3.0 asks for v3)
  --search-delay MS            answer every search MS milliseconds late
  --search-empty-auth-key accept|refuse
                               a search with an empty or absent auth_key: accepted as a client-side call
                               (default; the API reference, the official SDK) or refused with 403 (the error-codes page)`;
const SSO_FLAGS = `  --sso                        single sign-on mode: the password login is disabled, the cloud API accepts only
                               access tokens (audience ${DEFAULTS.sso.audience}) of the stand-in identity provider at
                               /idp/ (client ${DEFAULTS.sso.clients[0].id} / ${DEFAULTS.sso.clients[0].secret}, the password grant with
                               the username and password, or a GitHub OIDC token from /github-oidc/token)
  --sso-password-login 403|401|404
                               what the disabled password login answers (implies --sso; default ${DEFAULTS.sso.passwordLogin}
                               SsoEnabled, invented)
  --sso-token-seconds N        lifetime of the identity provider's access tokens (implies --sso; default ${DEFAULTS.sso.accessTokenSeconds})
  --sso-federation-subject GLOB
                               the subjects the identity provider's GitHub federation trusts, * any run of
                               characters (implies --sso; default ${DEFAULTS.sso.federation.subject}), e.g.
                               repo:acme/site:environment:production, as a platform team writes its trust
  --oidc-environment NAME      the job the GitHub OIDC stand-in signs for has this environment: subject
                               repo:OWNER/REPO:environment:NAME (implies --sso; default none)
  --oidc-ref REF               the ref of that job (implies --sso; default ${DEFAULTS.sso.githubJob.ref}): subject
                               repo:OWNER/REPO:ref:REF when it has no environment (refs/tags/v1 for a tag)
  --oidc-event NAME            the event that started that job (implies --sso; default ${DEFAULTS.sso.githubJob.eventName}); pull_request
                               gives the subject repo:OWNER/REPO:pull_request when it has no environment`;
/** --github and --gitlab: what --github prints names the commands of how the emulator was started. */
const codeHostFlags = (face) => `  --github                     also start the GitHub API stand-in (Deployments, statuses, compare) for
                               ${DEFAULTS.sso.githubJob.repository}, with a few commits on main, and print the variables to export
                               ${gitHubFor(face)}
  --github-port PORT           its port (implies --github; default ${DEFAULT_GITHUB_PORT}; 0 = any free port)
  --gitlab                     also start the GitLab API stand-in (REST API v4: deployments, compare, merge base,
                               tags, issues) for acme/platform/site, with a few commits on main, and print the
                               variables to export for brcloud deploy and brcloud status: BRCLOUD_GITLAB_URL,
                               BRCLOUD_GITLAB_PROJECT, BRCLOUD_GITLAB_TOKEN, BRCLOUD_COMMIT (not with --github)
  --gitlab-port PORT           its port (implies --gitlab; default ${DEFAULT_GITLAB_PORT}; 0 = any free port)`;
const FAULT_FLAGS = `  --fail OP:STATUS[:TIMES[:RETRY_AFTER]]
                               answer STATUS to the first TIMES (default 1) calls of OP; repeatable
  --apply-then-fail OP:STATUS[:TIMES]
                               carry out the first TIMES (default 1) calls of OP in full, then answer STATUS
                               (a deploy done but answered 500); repeatable
  --apply-then-delay OP:MS[:TIMES]
                               carry out the first TIMES (default 1) calls of OP in full, then answer MS
                               milliseconds late (a client with a shorter timeout sees no answer); repeatable
  --hang OP[:TIMES]            never answer the first TIMES (default 1) calls of OP; repeatable
  --reset-upload-after BYTES   reset the connection of the first upload after BYTES of its body
  --drop-after-upload N        store the first N uploads, then close the connection without answering`;
const RUN_FLAGS = `  --ready-file PATH            write the URL to PATH once listening (removed on exit)
  --quiet                      do not log requests
  --help                       show this help`;
const NOTES = `Answers carry X-Emulator-Invented: <names> where something in them is the emulator's own (docs/emulator.md).
Real paths it does not emulate (PUT /v3/environments/ID, GET /api/v2/suggest/, GET /api/v2/widgets/TYPE/ID)
answer 501 NotEmulated.

Sites (no authorization): GET /sites/ENVIRONMENT/PATH answers the file PATH inside the distribution the
environment runs (no PATH: index.html); 503 while it deploys; 500 on every path when the distribution
holds a file EMULATOR-SITE-FAILS at its root.`;
/** --help, naming the commands of how the emulator was started (./banner.ts). */
const helpText = (face = 'clone') => [
    INTRO,
    '',
    usageLine(face),
    '',
    STACK_FLAGS,
    DEPLOY_FLAGS,
    SEARCH_FLAGS,
    SSO_FLAGS,
    codeHostFlags(face),
    FAULT_FLAGS,
    RUN_FLAGS,
    '',
    `Operations: ${OPERATIONS.join(', ')}`,
    '',
    NOTES,
    ''
].join('\n');
class UsageError extends Error {
}
function cli_args_int(flag, value, min = 0) {
    if (!/^\d+$/.test(value) || Number(value) < min)
        throw new UsageError(`--${flag} needs a whole number >= ${min}, got "${value}"`);
    return Number(value);
}
function seconds(flag, value) {
    if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value))
        throw new UsageError(`--${flag} needs a number of seconds >= 0 (fractions allowed), got "${value}"`);
    return Number(value);
}
/** A number of hours, 0 or more. */
function hours(flag, value) {
    if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value))
        throw new UsageError(`--${flag} needs a number of hours >= 0 (fractions allowed), got "${value}"`);
    return Number(value);
}
/** A signed number of seconds (a clock may be behind as well as ahead). */
function signedSeconds(flag, value) {
    if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(value))
        throw new UsageError(`--${flag} needs a number of seconds (may be negative, fractions allowed), got "${value}"`);
    return Number(value);
}
function names(value) {
    return value
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== '');
}
function operation(flag, value) {
    const op = OPERATIONS.find((o) => o === value);
    if (op === undefined)
        throw new UsageError(`--${flag}: unknown operation "${value}" (one of ${OPERATIONS.join(', ')})`);
    return op;
}
/** A flag that takes one of a few words. */
function oneOf(flag, value, allowed) {
    if (value === undefined)
        return undefined;
    if (!allowed.includes(value))
        throw new UsageError(`--${flag} needs ${allowed.join(' or ')}, got "${value}"`);
    return value;
}
/** `--apply-then-fail OP:STATUS[:TIMES]`: carried out, then answered STATUS. */
function applyThenFail(spec) {
    const [op, status, times, ...rest] = spec.split(':');
    if (op === undefined || status === undefined || rest.length > 0)
        throw new UsageError(`--apply-then-fail needs OPERATION:STATUS[:TIMES], got "${spec}"`);
    const code = cli_args_int('apply-then-fail', status, 100);
    if (code > 599)
        throw new UsageError(`--apply-then-fail: status ${code} is not an HTTP status`);
    return { operation: operation('apply-then-fail', op), kind: 'apply-then-status', status: code, times: timesOf('apply-then-fail', times) };
}
/** `--apply-then-delay OP:MS[:TIMES]`: carried out, then answered MS late. */
function applyThenDelay(spec) {
    const [op, ms, times, ...rest] = spec.split(':');
    if (op === undefined || ms === undefined || rest.length > 0)
        throw new UsageError(`--apply-then-delay needs OPERATION:MS[:TIMES], got "${spec}"`);
    return {
        operation: operation('apply-then-delay', op),
        kind: 'apply-then-delay',
        delayMs: cli_args_int('apply-then-delay', ms),
        times: timesOf('apply-then-delay', times)
    };
}
/** A fault's optional TIMES (default 1). */
function timesOf(flag, times) {
    return times === undefined || times === '' ? 1 : cli_args_int(flag, times, 1);
}
/** `--sso` and its knobs; a knob alone turns single sign-on on too (it means nothing without it). */
function ssoOptions(flags) {
    const knobs = {
        'sso-password-login': flags['sso-password-login'],
        'sso-token-seconds': flags['sso-token-seconds'],
        'sso-federation-subject': flags['sso-federation-subject'],
        'oidc-environment': flags['oidc-environment'],
        'oidc-ref': flags['oidc-ref'],
        'oidc-event': flags['oidc-event']
    };
    if (flags.sso !== true && Object.values(knobs).every((v) => v === undefined))
        return undefined;
    const sso = {};
    const answer = oneOf('sso-password-login', knobs['sso-password-login'], ['403', '401', '404']);
    if (answer !== undefined)
        sso.passwordLogin = answer;
    if (knobs['sso-token-seconds'] !== undefined)
        sso.accessTokenSeconds = cli_args_int('sso-token-seconds', knobs['sso-token-seconds'], 1);
    const subject = knobs['sso-federation-subject'];
    if (subject !== undefined) {
        if (subject.trim() === '')
            throw new UsageError('--sso-federation-subject needs a subject or a glob, e.g. repo:acme/site:*');
        sso.federation = { subject };
    }
    const job = {};
    const environment = knobs['oidc-environment'];
    if (environment !== undefined) {
        if (environment.trim() === '')
            throw new UsageError('--oidc-environment needs an environment name');
        job.environment = environment;
    }
    const ref = knobs['oidc-ref'];
    if (ref !== undefined) {
        if (!/^refs\/(heads|tags|pull)\/\S+$/.test(ref))
            throw new UsageError(`--oidc-ref needs a full ref (refs/heads/BRANCH, refs/tags/TAG, refs/pull/N/merge), got "${ref}"`);
        job.ref = ref;
    }
    const event = knobs['oidc-event'];
    if (event !== undefined) {
        if (!/^[a-z_]+$/.test(event))
            throw new UsageError(`--oidc-event needs an event name (push, workflow_dispatch, pull_request, ...), got "${event}"`);
        job.eventName = event;
    }
    if (Object.keys(job).length > 0)
        sso.githubJob = job;
    return sso;
}
/** Every flag the emulator takes; parseArgs refuses any other (strict) and any positional argument. */
const FLAGS = {
    host: { type: 'string' },
    port: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
    'token-lifetime': { type: 'string' },
    'token-clock-skew': { type: 'string' },
    'refresh-lifetime': { type: 'string' },
    environments: { type: 'string' },
    'max-environments': { type: 'string' },
    'environment-page-size': { type: 'string' },
    'environment-offset-ignored': { type: 'boolean' },
    'distribution-page-size': { type: 'string' },
    'upload-answer': { type: 'string' },
    storage: { type: 'string' },
    'no-keep-uploads': { type: 'boolean' },
    'max-distributions': { type: 'string' },
    'max-distribution-bytes': { type: 'string' },
    'upload-rate': { type: 'string' },
    'deploy-seconds': { type: 'string' },
    'deploy-while-busy': { type: 'string' },
    'deploy-looks': { type: 'string' },
    'deploy-report': { type: 'string' },
    'site-during-deploy': { type: 'string' },
    'no-environment-status': { type: 'boolean' },
    'md5-case': { type: 'string' },
    'unknown-environment-by-name': { type: 'string' },
    'id-case': { type: 'string' },
    'id-while-deploying': { type: 'string' },
    'delete-in-use': { type: 'string' },
    'clock-offset': { type: 'string' },
    'backup-age-hours': { type: 'string' },
    'no-backups': { type: 'boolean' },
    'app-config-files': { type: 'string' },
    'search-account-id': { type: 'string' },
    'search-auth-key': { type: 'string' },
    'search-domain-key': { type: 'string' },
    'search-facet-format': { type: 'string' },
    'search-delay': { type: 'string' },
    'search-empty-auth-key': { type: 'string' },
    sso: { type: 'boolean' },
    'sso-password-login': { type: 'string' },
    'sso-token-seconds': { type: 'string' },
    'sso-federation-subject': { type: 'string' },
    'oidc-environment': { type: 'string' },
    'oidc-ref': { type: 'string' },
    'oidc-event': { type: 'string' },
    github: { type: 'boolean' },
    'github-port': { type: 'string' },
    gitlab: { type: 'boolean' },
    'gitlab-port': { type: 'string' },
    fail: { type: 'string', multiple: true },
    hang: { type: 'string', multiple: true },
    'apply-then-fail': { type: 'string', multiple: true },
    'apply-then-delay': { type: 'string', multiple: true },
    'reset-upload-after': { type: 'string' },
    'drop-after-upload': { type: 'string' },
    'ready-file': { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' }
};
/** The flags given, typed as parseArgs reads FLAGS. */
function readFlags(argv) {
    return (0,external_node_util_namespaceObject.parseArgs)({ args: argv, strict: true, allowPositionals: false, options: FLAGS }).values;
}
/** `--fail OP:STATUS[:TIMES[:RETRY_AFTER]]`: answered STATUS, nothing carried out. */
function cli_args_fail(spec) {
    const [op, status, times, retryAfter, ...rest] = spec.split(':');
    if (op === undefined || status === undefined || rest.length > 0) {
        throw new UsageError(`--fail needs OPERATION:STATUS[:TIMES[:RETRY_AFTER]], got "${spec}"`);
    }
    const fault = { operation: operation('fail', op), kind: 'status', status: cli_args_int('fail', status, 100), times: 1 };
    if (fault.status !== undefined && fault.status > 599)
        throw new UsageError(`--fail: status ${fault.status} is not an HTTP status`);
    if (times !== undefined && times !== '')
        fault.times = cli_args_int('fail', times, 1);
    if (retryAfter !== undefined && retryAfter !== '')
        fault.retryAfterSeconds = cli_args_int('fail', retryAfter);
    return fault;
}
/** `--hang OP[:TIMES]`: never answered. */
function hang(spec) {
    const [op, times, ...rest] = spec.split(':');
    if (op === undefined || rest.length > 0)
        throw new UsageError(`--hang needs OPERATION[:TIMES], got "${spec}"`);
    return { operation: operation('hang', op), kind: 'hang', times: times === undefined ? 1 : cli_args_int('hang', times, 1) };
}
/** The faults the flags ask for, in the order of the help: --fail, --hang, --apply-then-*, then the upload's. */
function faultsOf(flags) {
    const faults = [];
    for (const spec of flags.fail ?? [])
        faults.push(cli_args_fail(spec));
    for (const spec of flags.hang ?? [])
        faults.push(hang(spec));
    for (const spec of flags['apply-then-fail'] ?? [])
        faults.push(applyThenFail(spec));
    for (const spec of flags['apply-then-delay'] ?? [])
        faults.push(applyThenDelay(spec));
    if (flags['reset-upload-after'] !== undefined) {
        faults.push({ operation: 'upload', kind: 'reset-mid-upload', afterBytes: cli_args_int('reset-upload-after', flags['reset-upload-after']), times: 1 });
    }
    if (flags['drop-after-upload'] !== undefined) {
        faults.push({ operation: 'upload', kind: 'drop-after-upload', times: cli_args_int('drop-after-upload', flags['drop-after-upload'], 1) });
    }
    return faults;
}
/** Where it listens, the account and its tokens. */
function setLogin(flags, options) {
    if (flags.host !== undefined)
        options.host = flags.host;
    if (flags.port !== undefined)
        options.port = cli_args_int('port', flags.port);
    if (flags.username !== undefined)
        options.username = flags.username;
    if (flags.password !== undefined)
        options.password = flags.password;
    if (flags['token-lifetime'] !== undefined)
        options.tokenLifetimeSeconds = cli_args_int('token-lifetime', flags['token-lifetime'], 1);
    if (flags['refresh-lifetime'] !== undefined)
        options.refreshLifetimeSeconds = cli_args_int('refresh-lifetime', flags['refresh-lifetime'], 1);
    if (flags['token-clock-skew'] !== undefined)
        options.tokenClockSkewSeconds = seconds('token-clock-skew', flags['token-clock-skew']);
}
/** The environments, their lists' pages, and the distributions: the upload's answer, where they are kept, their limits. */
function setStack(flags, options) {
    if (flags.environments !== undefined)
        options.environments = names(flags.environments);
    if (flags['max-environments'] !== undefined)
        options.maxEnvironments = cli_args_int('max-environments', flags['max-environments'], 1);
    if (flags['environment-page-size'] !== undefined)
        options.environmentPageSize = cli_args_int('environment-page-size', flags['environment-page-size'], 1);
    if (flags['environment-offset-ignored'] === true)
        options.environmentOffsetIgnored = true;
    if (flags['distribution-page-size'] !== undefined)
        options.distributionPageSize = cli_args_int('distribution-page-size', flags['distribution-page-size'], 1);
    const answer = flags['upload-answer'];
    if (answer !== undefined) {
        if (answer !== 'record' && answer !== 'numeric-id' && answer !== 'no-id' && answer !== 'empty') {
            throw new UsageError(`--upload-answer needs record, numeric-id, no-id or empty, got "${answer}"`);
        }
        options.uploadAnswer = answer;
    }
    if (flags.storage !== undefined)
        options.storageDir = flags.storage;
    if (flags['no-keep-uploads'] === true)
        options.keepUploads = false;
    if (flags['max-distributions'] !== undefined)
        options.maxDistributions = cli_args_int('max-distributions', flags['max-distributions']);
    if (flags['max-distribution-bytes'] !== undefined) {
        options.maxDistributionBytes = cli_args_int('max-distribution-bytes', flags['max-distribution-bytes'], 1);
    }
    if (flags['upload-rate'] !== undefined)
        options.uploadBytesPerSecond = cli_args_int('upload-rate', flags['upload-rate'], 1);
}
/** How a deploy goes and is reported, and how records read (cases, ids, fields) while it does. */
function setDeploy(flags, options) {
    if (flags['deploy-seconds'] !== undefined)
        options.deploySeconds = seconds('deploy-seconds', flags['deploy-seconds']);
    const whileBusy = oneOf('deploy-while-busy', flags['deploy-while-busy'], ['refuse', 'accept']);
    if (whileBusy !== undefined)
        options.deployWhileBusy = whileBusy;
    if (flags['deploy-looks'] !== undefined)
        options.deployLooks = cli_args_int('deploy-looks', flags['deploy-looks']);
    const report = oneOf('deploy-report', flags['deploy-report'], ['when-done', 'at-request']);
    if (report !== undefined)
        options.deployReport = report;
    const during = oneOf('site-during-deploy', flags['site-during-deploy'], ['unavailable', 'old']);
    if (during !== undefined)
        options.siteDuringDeploy = during;
    if (flags['no-environment-status'] === true)
        options.environmentStatus = false;
    const md5Case = oneOf('md5-case', flags['md5-case'], ['lower', 'upper']);
    if (md5Case !== undefined)
        options.md5Case = md5Case;
    const unknownByName = oneOf('unknown-environment-by-name', flags['unknown-environment-by-name'], ['not-found', 'no-id']);
    if (unknownByName !== undefined)
        options.unknownEnvironmentByName = unknownByName;
    const idCase = oneOf('id-case', flags['id-case'], ['as-stored', 'upper', 'upper-distributions', 'upper-environments', 'upper-by-name']);
    if (idCase !== undefined)
        options.idCase = idCase;
    const idWhileDeploying = oneOf('id-while-deploying', flags['id-while-deploying'], ['reported', 'absent', 'null']);
    if (idWhileDeploying !== undefined)
        options.idWhileDeploying = idWhileDeploying;
    const deleteInUse = oneOf('delete-in-use', flags['delete-in-use'], ['refuse', 'allow']);
    if (deleteInUse !== undefined)
        options.deleteInUse = deleteInUse;
}
/** The platform's clock, its backups and the stack's application configuration files. */
function setClockAndBackups(flags, options) {
    if (flags['clock-offset'] !== undefined)
        options.clockOffsetSeconds = signedSeconds('clock-offset', flags['clock-offset']);
    if (flags['backup-age-hours'] !== undefined)
        options.backupAgeHours = hours('backup-age-hours', flags['backup-age-hours']);
    if (flags['no-backups'] === true) {
        if (flags['backup-age-hours'] !== undefined)
            throw new UsageError('--no-backups and --backup-age-hours: give one or the other');
        options.noBackups = true;
    }
    if (flags['app-config-files'] !== undefined)
        options.appConfigFiles = names(flags['app-config-files']);
}
/** The search API's keys, facet format, delay, and what it makes of an empty auth_key. */
function setSearch(flags, options) {
    if (flags['search-account-id'] !== undefined)
        options.searchAccountId = flags['search-account-id'];
    if (flags['search-auth-key'] !== undefined)
        options.searchAuthKey = flags['search-auth-key'];
    if (flags['search-domain-key'] !== undefined)
        options.searchDomainKey = flags['search-domain-key'];
    const facets = flags['search-facet-format'];
    if (facets !== undefined) {
        if (facets !== 'v3' && facets !== 'legacy')
            throw new UsageError(`--search-facet-format needs v3 or legacy, got "${facets}"`);
        options.searchFacetFormat = facets;
    }
    if (flags['search-delay'] !== undefined)
        options.searchDelayMs = cli_args_int('search-delay', flags['search-delay']);
    const emptyAuthKey = oneOf('search-empty-auth-key', flags['search-empty-auth-key'], ['accept', 'refuse']);
    if (emptyAuthKey !== undefined)
        options.searchEmptyAuthKey = emptyAuthKey;
}
/** The emulator's options, read in the order of the help (the first bad flag is the one named). */
function optionsOf(flags) {
    const options = { port: DEFAULT_PORT, faults: faultsOf(flags) };
    setLogin(flags, options);
    setStack(flags, options);
    setDeploy(flags, options);
    setClockAndBackups(flags, options);
    setSearch(flags, options);
    const sso = ssoOptions(flags);
    if (sso !== undefined)
        options.sso = sso;
    return options;
}
/** --github or --gitlab (one code host per run), each on its port. */
function setCodeHost(flags, command) {
    if (flags.github === true || flags['github-port'] !== undefined) {
        command.github = { port: flags['github-port'] === undefined ? DEFAULT_GITHUB_PORT : cli_args_int('github-port', flags['github-port']) };
    }
    if (flags.gitlab === true || flags['gitlab-port'] !== undefined) {
        if (command.github !== undefined) {
            throw new UsageError('--github and --gitlab: the emulator stands in for one code host per run, as a deploy talks to one; give one or the other');
        }
        command.gitlab = { port: flags['gitlab-port'] === undefined ? DEFAULT_GITLAB_PORT : cli_args_int('gitlab-port', flags['gitlab-port']) };
    }
}
function parseCli(argv) {
    const flags = readFlags(argv);
    if (flags.help === true)
        return { help: true };
    const command = { help: false, options: optionsOf(flags), quiet: flags.quiet === true };
    if (flags['ready-file'] !== undefined)
        command.readyFile = flags['ready-file'];
    setCodeHost(flags, command);
    return command;
}

;// CONCATENATED MODULE: ./src/emulator/commit-graph.ts
// A repository's history as both code hosts' stand-ins need it (github/, gitlab/): commits with their parents,
// branches, lightweight and annotated tags, refs resolved as git resolves a commit-ish, and how two commits relate
// (merge base, the commits one has and the other lacks). No host's words here: each model turns an unknown ref or
// unrelated histories into its own host's answer.

const FULL_SHA = /^[0-9a-f]{40}$/;
const SHORT_SHA = /^[0-9a-f]{7,40}$/;
/** A deterministic 40-hex sha for a label (its sha1), so tests can name commits. */
function fakeSha(label) {
    return (0,external_node_crypto_namespaceObject.createHash)('sha1').update(label).digest('hex');
}
/** Times without milliseconds, as GitHub writes them. */
function isoSeconds(ms) {
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
class CommitGraph {
    now;
    commits = new Map();
    branchTips = new Map();
    tags = new Map();
    /** The annotated tags' objects, by tag name (a lightweight tag has none). */
    tagObjects = new Map();
    constructor(now = Date.now) {
        this.now = now;
    }
    /** Adds a commit (dated now unless `date` says); its parents need not be known (a shallow boundary: the walk stops there). */
    commit(sha, parents = [], message = `Commit ${sha.slice(0, 7)}`, author, date) {
        for (const s of [sha, ...parents])
            if (!FULL_SHA.test(s))
                throw new Error(`Not a 40-hex lower-case sha: '${s}' (use fakeSha(label))`);
        if (!this.commits.has(sha))
            this.commits.set(sha, { sha, parents: [...parents], message, date: date ?? isoSeconds(this.now()), ...(author && { author }) });
        return sha;
    }
    /** Creates or moves (force-pushes) a branch. */
    branch(name, sha) {
        this.branchTips.set(name, this.known(sha));
    }
    /** A lightweight tag: the name points at the commit itself. */
    tag(name, sha) {
        this.tags.set(name, this.known(sha));
        this.tagObjects.delete(name);
    }
    /** An annotated tag: a tag object (its own sha, a message) pointing at the commit; returns the object's sha. */
    annotatedTag(name, sha, message = `Release ${name}`) {
        const object = { sha: fakeSha(`tag object ${name} ${sha}`), name, commit: this.known(sha), message };
        this.tags.set(name, object.commit);
        this.tagObjects.set(name, object);
        return object.sha;
    }
    /** The object of an annotated tag; undefined for a lightweight one, or no tag. */
    tagObject(name) {
        return this.tagObjects.get(name);
    }
    /** The tags in the order they were made (a moved tag keeps its place). */
    get tagEntries() {
        return [...this.tags].map(([name, sha]) => ({ name, sha }));
    }
    /** The branches in the order they were made. */
    get branchEntries() {
        return [...this.branchTips].map(([name, sha]) => ({ name, sha }));
    }
    branchTip(name) {
        return this.branchTips.get(name);
    }
    tagTarget(name) {
        return this.tags.get(name);
    }
    /** A chain of commits on `branch`, the first one's parent the branch's current tip (if any); moves the branch to the last. */
    linear(branch, shas, dates) {
        let parent = this.branchTips.get(branch);
        shas.forEach((sha, i) => {
            this.commit(sha, parent === undefined ? [] : [parent], undefined, undefined, dates?.[i]);
            parent = sha;
        });
        if (parent !== undefined)
            this.branchTips.set(branch, parent);
        return shas;
    }
    getCommit(sha) {
        return this.commits.get(sha);
    }
    /** A branch, a tag, `refs/heads/...`, `refs/tags/...`, a known full sha, or a unique prefix of >= 7 hex of one. */
    resolve(ref) {
        const named = this.branchTips.get(ref.replace(/^refs\/heads\//, '')) ?? this.tags.get(ref.replace(/^refs\/tags\//, ''));
        if (named !== undefined)
            return named;
        const lower = ref.toLowerCase();
        if (!SHORT_SHA.test(lower))
            return undefined;
        if (this.commits.has(lower))
            return lower;
        // An annotated tag's own object is peeled to its commit, as git's commit-ish does.
        const object = [...this.tagObjects.values()].find((t) => t.sha === lower);
        if (object !== undefined)
            return object.commit;
        const matches = [...this.commits.keys()].filter((sha) => sha.startsWith(lower));
        return matches.length === 1 ? matches[0] : undefined; // an ambiguous prefix names nothing
    }
    /** The commit a ref names; undefined when it names none the graph holds. */
    commitOf(ref) {
        const sha = this.resolve(ref);
        return sha === undefined ? undefined : this.commits.get(sha);
    }
    /** Walks base..head like `git log base..head` and finds the merge base. */
    relate(base, head) {
        const fromBase = this.ancestors(base.sha);
        const fromHead = this.ancestors(head.sha);
        const common = [...fromHead].filter((sha) => fromBase.has(sha));
        const ahead = this.topological([...fromHead].filter((sha) => !fromBase.has(sha)));
        const behindBy = [...fromBase].filter((sha) => !fromHead.has(sha)).length;
        return { base, head, mergeBase: common.length === 0 ? undefined : this.best(common), ahead, behindBy };
    }
    /** The commit and every known ancestor. */
    ancestors(sha) {
        const seen = new Set();
        const stack = [sha];
        for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
            const commit = this.commits.get(next);
            if (commit === undefined || seen.has(next))
                continue;
            seen.add(next);
            stack.push(...commit.parents);
        }
        return seen;
    }
    known(sha) {
        if (!this.commits.has(sha))
            throw new Error(`Unknown commit ${sha}: add it with commit() first`);
        return sha;
    }
    /** The common ancestor no other common ancestor descends from; the newest added when several (criss-cross merges). */
    best(common) {
        const set = new Set(common);
        const shadowed = new Set();
        for (const sha of common)
            for (const a of this.ancestors(sha))
                if (a !== sha && set.has(a))
                    shadowed.add(a);
        const order = [...this.commits.keys()];
        const candidates = common.filter((sha) => !shadowed.has(sha)).sort((a, b) => order.indexOf(b) - order.indexOf(a));
        return this.commits.get(candidates[0]);
    }
    /** Parents before children, ties in the order commits were added. */
    topological(shas) {
        const wanted = new Set(shas);
        const done = new Set();
        const out = [];
        const visit = (sha) => {
            if (!wanted.has(sha) || done.has(sha))
                return;
            done.add(sha);
            const commit = this.commits.get(sha);
            for (const p of commit.parents)
                visit(p);
            out.push(commit);
        };
        for (const sha of this.commits.keys())
            visit(sha);
        return out;
    }
}

;// CONCATENATED MODULE: ./src/emulator/github/model.ts
// The repository the GitHub API stand-in answers about: a commit graph, branches and tags, deployments
// and their statuses, issues with their labels and comments. No HTTP here (server.ts renders it as GitHub's JSON), so end-to-end tests can
// seed history directly, as another job or tool would have left it.


const DEPLOYMENT_STATES = ['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success'];
/** GitHub's reasons for an issue's state: three to close it (duplicate the newest), and reopened. */
const ISSUE_STATE_REASONS = ['completed', 'not_planned', 'duplicate', 'reopened'];
/** An answer GitHub would give instead of doing the thing; server.ts renders `{message, documentation_url, ...extra}`. */
class GitHubError extends Error {
    status;
    extra;
    name = 'GitHubError';
    constructor(status, message, extra = {}) {
        super(message);
        this.status = status;
        this.extra = extra;
    }
}
const DEFAULT_CREATOR = 'github-actions[bot]';
class GitHubModel {
    now;
    /** The repository's history (../commit-graph.ts, shared with the GitLab stand-in). */
    graph;
    deploymentList = [];
    statusList = new Map();
    nextDeploymentId = 1000;
    nextStatusId = 5000;
    issueList = [];
    labelList = [];
    nextIssueNumber = 1;
    nextIssueId = 700_000;
    nextCommentId = 900_000;
    nextLabelId = 300_000;
    commitPulls = new Map();
    constructor(now = Date.now) {
        this.now = now;
        this.graph = new CommitGraph(now);
    }
    /** Adds a commit; its parents need not be known (a shallow boundary: the walk stops there). */
    commit(sha, parents = [], message = `Commit ${sha.slice(0, 7)}`, author) {
        return this.graph.commit(sha, parents, message, author);
    }
    /** Links a pull request (an issue added with pullRequest: true) to a commit it brought, as GitHub associates them. */
    associatePullRequest(number, sha) {
        const pull = this.issue(number);
        if (pull === undefined || !pull.pullRequest)
            throw new Error(`#${number} is not a pull request of the model (addIssue({ pullRequest: true }) first)`);
        if (this.graph.getCommit(sha) === undefined)
            throw new Error(`Unknown commit ${sha}: add it with commit() first`);
        const list = this.commitPulls.get(sha) ?? [];
        if (!list.includes(number))
            list.push(number);
        this.commitPulls.set(sha, list);
    }
    /** The pull requests associated with a commit (GitHub's "List pull requests associated with a commit"); an unknown commit is not found (404). */
    pullsOf(ref) {
        const commit = this.commitOf(ref);
        return (this.commitPulls.get(commit.sha) ?? []).flatMap((n) => this.issue(n) ?? []);
    }
    /** Creates or moves (force-pushes) a branch. */
    branch(name, sha) {
        this.graph.branch(name, sha);
    }
    /** A lightweight tag: the name points at the commit itself. */
    tag(name, sha) {
        this.graph.tag(name, sha);
    }
    /** An annotated tag: a tag object (its own sha, a message) pointing at the commit; returns the object's sha. */
    annotatedTag(name, sha, message = `Release ${name}`) {
        return this.graph.annotatedTag(name, sha, message);
    }
    /** The object of an annotated tag; undefined for a lightweight one, or no tag. */
    tagObject(name) {
        return this.graph.tagObject(name);
    }
    /** The tags, the last made first (GitHub documents no order for its tag listing). */
    get tagList() {
        return this.graph.tagEntries.reverse();
    }
    branchTip(name) {
        return this.graph.branchTip(name);
    }
    /** A chain of commits on `branch`, the first one's parent the branch's current tip (if any); moves the branch to the last. */
    linear(branch, shas) {
        return this.graph.linear(branch, shas);
    }
    getCommit(sha) {
        return this.graph.getCommit(sha);
    }
    /** A branch, a tag, `refs/heads/...`, `refs/tags/...`, a known full sha, or a unique prefix of >= 7 hex of one. */
    resolve(ref) {
        return this.graph.resolve(ref);
    }
    /** Oldest first; a copy. */
    get deployments() {
        return [...this.deploymentList];
    }
    deployment(id) {
        return this.deploymentList.find((d) => d.id === id);
    }
    /** Newest first, as GitHub lists them. */
    statuses(id) {
        return [...(this.statusList.get(id) ?? [])].reverse();
    }
    /** What POST .../deployments does; also seeds history (a deployment another run created). */
    addDeployment(input) {
        const sha = this.resolve(input.ref) ?? (input.sha !== undefined && FULL_SHA.test(input.sha) ? input.sha : undefined);
        if (sha === undefined)
            throw new GitHubError(422, `No ref found for: ${input.ref}`);
        const environment = input.environment ?? 'production';
        const time = isoSeconds(this.now());
        const deployment = {
            id: this.nextDeploymentId++,
            sha,
            ref: input.ref,
            task: input.task ?? 'deploy',
            payload: input.payload ?? {},
            original_environment: environment,
            environment,
            description: input.description ?? null,
            creator: input.creator ?? DEFAULT_CREATOR,
            created_at: time,
            updated_at: time,
            transient_environment: input.transient_environment ?? false,
            production_environment: input.production_environment ?? environment === 'production'
        };
        this.deploymentList.push(deployment);
        this.statusList.set(deployment.id, []);
        return deployment;
    }
    /**
     * What POST .../statuses does. GitHub documents auto_inactive (default true) as: adds an `inactive`
     * status to all prior non-transient, non-production deployments of the same repository and environment
     * that had a `success` state; production ones only for a client sending the flash-preview media type.
     * "Had a success state" is read as: their latest status is success (an inactive one is left alone).
     */
    addStatus(deploymentId, input) {
        const deployment = this.deployment(deploymentId);
        if (deployment === undefined)
            throw new GitHubError(404, 'Not Found');
        const previous = this.statusList.get(deploymentId)?.at(-1);
        const environment = input.environment ?? previous?.environment ?? deployment.environment;
        const status = this.pushStatus(deployment, {
            state: input.state,
            description: input.description ?? '',
            environment,
            log_url: input.log_url ?? input.target_url ?? '',
            environment_url: input.environment_url ?? '',
            creator: input.creator ?? DEFAULT_CREATOR
        });
        if (input.environment !== undefined)
            deployment.environment = input.environment;
        if (input.state === 'success' && (input.auto_inactive ?? true))
            this.inactivatePrior(deployment, status.creator, input.inactivateProduction ?? false);
        return status;
    }
    /** Oldest first; a copy of the list (the issues themselves are live). */
    get issues() {
        return [...this.issueList];
    }
    issue(number) {
        return this.issueList.find((i) => i.number === number);
    }
    get labels() {
        return [...this.labelList];
    }
    /** A label by name, as GitHub matches them: without case. */
    label(name) {
        return this.labelList.find((l) => l.name.toLowerCase() === name.toLowerCase());
    }
    /** What POST .../labels does; a name taken (without case) is GitHub's 422 already_exists. */
    addLabel(name, color = 'ededed', description = null) {
        if (this.label(name) !== undefined) {
            throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }] });
        }
        const label = { id: this.nextLabelId++, name, color: color.toLowerCase(), description, default: false };
        this.labelList.push(label);
        return label;
    }
    /** What POST .../issues does (also seeds one another user opened); an unknown label is created, as GitHub does. */
    addIssue(input) {
        const time = isoSeconds(this.now());
        const user = input.user ?? DEFAULT_CREATOR;
        const closed = input.state === 'closed';
        const issue = {
            id: this.nextIssueId++,
            number: this.nextIssueNumber++,
            title: input.title,
            body: input.body ?? null,
            state: closed ? 'closed' : 'open',
            state_reason: closed ? 'completed' : null,
            labels: this.labelNames(input.labels ?? []),
            user,
            pullRequest: input.pullRequest ?? false,
            comments: [],
            created_at: time,
            updated_at: time,
            closed_at: closed ? time : null,
            closed_by: closed ? user : null
        };
        this.issueList.push(issue);
        return issue;
    }
    /** What PATCH .../issues/{number} does: the fields given; a close records when and by whom, a reopen clears it. */
    updateIssue(number, change) {
        const issue = this.issue(number);
        if (issue === undefined)
            throw new GitHubError(404, 'Not Found');
        const time = isoSeconds(this.now());
        if (change.title !== undefined)
            issue.title = change.title;
        if (change.body !== undefined)
            issue.body = change.body;
        if (change.labels !== undefined)
            issue.labels = this.labelNames(change.labels);
        if (change.state === 'closed' && issue.state === 'open') {
            issue.state = 'closed';
            issue.closed_at = time;
            issue.closed_by = change.user ?? DEFAULT_CREATOR;
            issue.state_reason = change.state_reason ?? 'completed';
        }
        else if (change.state === 'open' && issue.state === 'closed') {
            issue.state = 'open';
            issue.closed_at = null;
            issue.closed_by = null;
            issue.state_reason = 'reopened';
        }
        else if (change.state_reason !== undefined && issue.state === 'closed') {
            issue.state_reason = change.state_reason;
        }
        issue.updated_at = time;
        return issue;
    }
    /** What POST .../issues/{number}/comments does. */
    addComment(number, body, user = DEFAULT_CREATOR) {
        const issue = this.issue(number);
        if (issue === undefined)
            throw new GitHubError(404, 'Not Found');
        const time = isoSeconds(this.now());
        const comment = { id: this.nextCommentId++, body, user, created_at: time, updated_at: time };
        issue.comments.push(comment);
        issue.updated_at = time;
        return comment;
    }
    /** Names as the repository spells them; an unknown one created. */
    labelNames(names) {
        const out = [];
        for (const name of names) {
            const label = this.label(name) ?? this.addLabel(name);
            if (!out.includes(label.name))
                out.push(label.name);
        }
        return out;
    }
    /** Walks base...head like `git log base..head` and finds the merge base; throws GitHub's 404s. */
    compare(baseRef, headRef) {
        const r = this.graph.relate(this.commitOf(baseRef), this.commitOf(headRef));
        if (r.mergeBase === undefined)
            throw new GitHubError(404, `No common ancestor between ${baseRef} and ${headRef}.`);
        const { base, head, mergeBase, ahead, behindBy } = r;
        return { base, head, mergeBase, status: compareStatus(ahead.length, behindBy), commits: ahead, aheadBy: ahead.length, behindBy };
    }
    pushStatus(deployment, fields) {
        const time = isoSeconds(this.now());
        const status = {
            id: this.nextStatusId++,
            deployment_id: deployment.id,
            ...fields,
            target_url: fields.log_url,
            created_at: time,
            updated_at: time
        };
        this.statusList.get(deployment.id)?.push(status);
        deployment.updated_at = time;
        return status;
    }
    inactivatePrior(current, creator, includeProduction) {
        for (const d of this.deploymentList) {
            if (d.id >= current.id || d.environment !== current.environment || d.transient_environment)
                continue;
            if (d.production_environment && !includeProduction)
                continue;
            const last = this.statusList.get(d.id)?.at(-1);
            if (last?.state !== 'success')
                continue;
            this.pushStatus(d, { state: 'inactive', description: '', environment: d.environment, log_url: '', environment_url: '', creator });
        }
    }
    commitOf(ref) {
        const commit = this.graph.commitOf(ref);
        if (commit === undefined)
            throw new GitHubError(404, 'Not Found');
        return commit;
    }
}
/**
 * The history `brcloud emulator --github` starts with, as a user trying the deploy order and the status report needs
 * it: three commits on main, a branch of two commits off its second (main moved on by one), v1.0.0 (lightweight) on
 * its first and v1.1.0 (annotated) on its second.
 */
function seedSampleHistory(model) {
    const main = model.linear('main', ['sample-1', 'sample-2', 'sample-3'].map(fakeSha));
    const [first = '', second = ''] = main;
    const name = 'feature/search';
    model.branch(name, second);
    const commits = model.linear(name, ['sample-feature-1', 'sample-feature-2'].map(fakeSha));
    model.tag('v1.0.0', first);
    model.annotatedTag('v1.1.0', second, 'Release 1.1.0');
    return {
        main,
        branch: { name, commits },
        tags: [
            { name: 'v1.0.0', commit: first, annotated: false },
            { name: 'v1.1.0', commit: second, annotated: true }
        ]
    };
}
function compareStatus(aheadBy, behindBy) {
    if (aheadBy === 0 && behindBy === 0)
        return 'identical';
    if (behindBy === 0)
        return 'ahead';
    return aheadBy === 0 ? 'behind' : 'diverged';
}

;// CONCATENATED MODULE: ./src/emulator/github/server.ts
// A stand-in for the GitHub REST API calls the action makes (deployments, their statuses), the
// compare call and the pull requests of a commit (what a release brings), the status report's tag listing (tag patterns) and drift issues (issues, their comments, a
// label), answered as GitHub documents them, for end-to-end tests. A real HTTP/1.1 server
// (node:http) over the model of model.ts; it records every request and can answer faults.
// Self-contained: the emulator's lint rule keeps it from importing even ../http-util.ts (only the commit graph and the listener).




const DEFAULT_GITHUB_TOKEN = 'ghs_localStandInToken12345';
const DOCS = 'https://docs.github.com/rest';
const HTML = 'https://github.com';
const BODY_LIMIT = 1024 * 1024;
/** A Deployment status's description, at most (GitHub's REST reference). */
const DESCRIPTION_LIMIT = 140;
const ISSUE_WRITES = ['create-issue', 'update-issue', 'create-issue-comment', 'create-label'];
const ISSUE_READS = ['list-issues', 'get-issue', 'list-issue-comments', 'get-label'];
function createGitHubStandIn(options = {}) {
    const tokens = options.tokens ?? { [DEFAULT_GITHUB_TOKEN]: { deployments: 'write', contents: 'read', issues: 'write', pullRequests: 'read' } };
    const model = new GitHubModel(options.now);
    const ctx = { api: '', owner: options.owner ?? 'acme', repo: options.repo ?? 'site', model };
    const stand = { ctx, tokens, calls: [], faults: new Map(), requests: 0 };
    return {
        model,
        calls: stand.calls,
        fail(routeName, fault) {
            const queue = stand.faults.get(routeName) ?? [];
            queue.push({ ...fault, times: fault.times ?? 1 });
            stand.faults.set(routeName, queue);
        },
        handle: (req, res) => server_handle(stand, req, res),
        setApi(api) {
            ctx.api = api;
        }
    };
}
/** One request: recorded, answered (a GitHubError as GitHub writes it). */
async function server_handle(stand, req, res) {
    const url = new URL(req.url ?? '/', stand.ctx.api);
    const raw = await server_readBody(req);
    const call = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        auth: req.headers.authorization,
        json: undefined,
        route: 'unknown',
        status: 0
    };
    stand.calls.push(call);
    let answer;
    try {
        answer = respond(stand, call, url, raw, req.headers);
    }
    catch (error) {
        if (!(error instanceof GitHubError))
            throw error;
        answer = { status: error.status, body: { message: error.message, ...error.extra, documentation_url: DOCS } };
    }
    call.status = answer.status;
    send(res, answer, ++stand.requests);
}
/** The call checked as GitHub checks it (size, fault, token, repository, permission, body), then routed. */
function respond(stand, call, url, raw, headers) {
    const { owner, repo } = stand.ctx;
    if (raw.length > BODY_LIMIT)
        throw new GitHubError(413, 'Payload Too Large');
    const matched = match(call.method, url.pathname);
    if (matched !== undefined)
        call.route = matched.route;
    if (raw.length > 0)
        call.json = server_parseJson(raw);
    // A fault answers before the token is looked at, as an outage of GitHub's front end would: nothing is applied.
    const fault = matched === undefined ? undefined : takeFault(stand.faults, matched.route);
    if (fault !== undefined)
        return fault;
    const grant = stand.tokens[tokenOf(call.auth) ?? ''];
    if (grant === undefined)
        throw new GitHubError(401, 'Bad credentials');
    if (matched === undefined || matched.owner.toLowerCase() !== owner.toLowerCase() || matched.repo.toLowerCase() !== repo.toLowerCase()) {
        throw new GitHubError(404, 'Not Found');
    }
    if (!allowed(grant, matched.route))
        throw new GitHubError(403, 'Resource not accessible by integration');
    if (raw.length > 0 && call.json === undefined)
        throw new GitHubError(400, 'Problems parsing JSON');
    return route(stand.ctx, matched, call, grant, headers.accept ?? '');
}
async function startGitHubStandIn(options = {}) {
    const core = createGitHubStandIn(options);
    const served = await serve((req, res) => core.handle(req, res), options.port, options.host);
    const url = served.url;
    core.setApi(url);
    return {
        url,
        model: core.model,
        calls: core.calls,
        fail: (routeName, fault) => core.fail(routeName, fault),
        close: () => served.close()
    };
}
function takeFault(faults, route) {
    const fault = faults.get(route)?.[0];
    if (fault === undefined)
        return undefined;
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0)
        faults.get(route)?.shift();
    const message = fault.status >= 500 ? 'Server Error' : (external_node_http_namespaceObject.STATUS_CODES[fault.status] ?? 'Error');
    return { status: fault.status, body: fault.body ?? { message, documentation_url: DOCS }, ...(fault.headers && { headers: fault.headers }) };
}
/** `token X` or `Bearer X`, as GitHub accepts both. */
function tokenOf(auth) {
    return /^(?:token|bearer)\s+(\S+)\s*$/i.exec(auth ?? '')?.[1];
}
function allowed(grant, route) {
    if (ISSUE_WRITES.includes(route))
        return grant.issues === 'write';
    if (ISSUE_READS.includes(route))
        return grant.issues === 'write' || grant.issues === 'read';
    if (route === 'compare' || route === 'list-tags')
        return grant.contents === 'read';
    if (route === 'commit-pulls')
        return grant.contents === 'read' && grant.pullRequests === 'read';
    if (route === 'create-deployment' || route === 'create-status')
        return grant.deployments === 'write';
    return grant.deployments !== 'none';
}
/** The routes by method and path; a `{basehead}` may hold encoded slashes, so the rest of the path is taken. */
function match(method, pathname) {
    const parts = pathname.split('/').slice(1);
    const [root, owner, repo, kind, id, sub] = parts;
    if (root !== 'repos' || owner === undefined || repo === undefined || owner === '' || repo === '')
        return undefined;
    const base = { owner: server_decode(owner), repo: server_decode(repo) };
    if (kind === 'compare' && method === 'GET' && parts.length > 4)
        return { route: 'compare', ...base, basehead: parts.slice(4).join('/') };
    if (kind === 'issues')
        return matchIssues(method, parts, base);
    if (kind === 'labels') {
        if (parts.length === 4 && method === 'POST')
            return { route: 'create-label', ...base };
        if (parts.length === 5 && method === 'GET' && id !== undefined && id !== '')
            return { route: 'get-label', ...base, name: server_decode(id) };
        return undefined;
    }
    if (kind === 'tags' && parts.length === 4)
        return method === 'GET' ? { route: 'list-tags', ...base } : undefined;
    if (kind === 'commits' && parts.length === 6 && sub === 'pulls' && id !== undefined && id !== '')
        return method === 'GET' ? { route: 'commit-pulls', ...base, name: server_decode(id) } : undefined;
    if (kind !== 'deployments')
        return undefined;
    if (parts.length === 4)
        return method === 'POST' ? { route: 'create-deployment', ...base } : method === 'GET' ? { route: 'list-deployments', ...base } : undefined;
    if (id === undefined || !/^\d+$/.test(id))
        return undefined;
    if (parts.length === 5 && method === 'GET')
        return { route: 'get-deployment', ...base, id: Number(id) };
    if (parts.length !== 6 || sub !== 'statuses')
        return undefined;
    return method === 'POST'
        ? { route: 'create-status', ...base, id: Number(id) }
        : method === 'GET'
            ? { route: 'list-statuses', ...base, id: Number(id) }
            : undefined;
}
/** /issues, /issues/{number}, /issues/{number}/comments. */
function matchIssues(method, parts, base) {
    const [, , , , number, sub] = parts;
    if (parts.length === 4)
        return method === 'GET' ? { route: 'list-issues', ...base } : method === 'POST' ? { route: 'create-issue', ...base } : undefined;
    if (number === undefined || !/^\d+$/.test(number))
        return undefined;
    const id = Number(number);
    if (parts.length === 5)
        return method === 'GET' ? { route: 'get-issue', ...base, id } : method === 'PATCH' ? { route: 'update-issue', ...base, id } : undefined;
    if (parts.length !== 6 || sub !== 'comments')
        return undefined;
    return method === 'GET' ? { route: 'list-issue-comments', ...base, id } : method === 'POST' ? { route: 'create-issue-comment', ...base, id } : undefined;
}
function route(ctx, m, call, grant, accept) {
    const login = grant.login ?? DEFAULT_CREATOR;
    switch (m.route) {
        case 'create-deployment':
            return { status: 201, body: deploymentJson(ctx, ctx.model.addDeployment({ ...deploymentInput(call.json), creator: login })) };
        case 'list-deployments':
            return listDeployments(ctx, call);
        case 'get-deployment':
            return { status: 200, body: deploymentJson(ctx, existing(ctx, m.id)) };
        case 'create-status': {
            const input = { ...statusInput(call.json), creator: login, inactivateProduction: accept.includes('flash-preview') };
            return { status: 201, body: statusJson(ctx, ctx.model.addStatus(existing(ctx, m.id).id, input)) };
        }
        case 'list-statuses':
            return page(call, [...ctx.model.statuses(existing(ctx, m.id).id)], (s) => statusJson(ctx, s), ctx.api);
        case 'compare':
            return compare(ctx, m.basehead ?? '', call);
        case 'list-issues':
            return listIssues(ctx, call);
        case 'create-issue': {
            const input = issueInput(call.json);
            // GitHub drops the labels of a user without push access, silently.
            const issue = ctx.model.addIssue({ ...input, ...(grant.setsLabels === false ? { labels: [] } : {}), user: login });
            return { status: 201, body: issueJson(ctx, issue) };
        }
        case 'get-issue':
            return { status: 200, body: issueJson(ctx, existingIssue(ctx, m.id)) };
        case 'update-issue':
            return { status: 200, body: issueJson(ctx, ctx.model.updateIssue(existingIssue(ctx, m.id).number, { ...issueChange(call.json), user: login })) };
        case 'create-issue-comment': {
            const issue = existingIssue(ctx, m.id);
            const body = field(objectBody(call.json), 'body', 'string');
            if (body === undefined)
                throw invalid('"body" wasn\'t supplied.');
            return { status: 201, body: commentJson(ctx, issue, ctx.model.addComment(issue.number, body, login)) };
        }
        case 'list-issue-comments': {
            const issue = existingIssue(ctx, m.id);
            return page(call, issue.comments, (c) => commentJson(ctx, issue, c), ctx.api);
        }
        case 'get-label': {
            const label = ctx.model.label(m.name ?? '');
            if (label === undefined)
                throw new GitHubError(404, 'Not Found');
            return { status: 200, body: labelJson(ctx, label) };
        }
        case 'create-label':
            return { status: 201, body: labelJson(ctx, ctx.model.addLabel(...labelInput(call.json))) };
        case 'list-tags':
            return page(call, ctx.model.tagList, (t) => tagJson(ctx, t), ctx.api);
        case 'commit-pulls':
            return page(call, ctx.model.pullsOf(m.name ?? ''), (p) => pullJson(ctx, p), ctx.api);
    }
}
function existingIssue(ctx, number) {
    const issue = number === undefined ? undefined : ctx.model.issue(number);
    if (issue === undefined)
        throw new GitHubError(404, 'Not Found');
    return issue;
}
/** GitHub's list of a repository's issues (pull requests among them): state, labels (all of them), sort, direction. */
function listIssues(ctx, call) {
    const q = call.query;
    const state = q.get('state') ?? 'open';
    const sort = q.get('sort') ?? 'created';
    const direction = q.get('direction') ?? 'desc';
    if (!['open', 'closed', 'all'].includes(state) || !['created', 'updated', 'comments'].includes(sort) || !['asc', 'desc'].includes(direction)) {
        throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Issue', code: 'invalid', field: 'state, sort or direction' }] });
    }
    const wanted = (q.get('labels') ?? '')
        .split(',')
        .map((l) => l.trim().toLowerCase())
        .filter((l) => l !== '');
    const key = (i) => (sort === 'comments' ? i.comments.length : sort === 'updated' ? i.updated_at : i.number);
    const list = ctx.model.issues
        .filter((i) => state === 'all' || i.state === state)
        .filter((i) => wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w)))
        .sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        const order = x < y ? -1 : x > y ? 1 : a.number - b.number;
        return direction === 'asc' ? order : -order;
    });
    return page(call, list, (i) => issueJson(ctx, i), ctx.api);
}
/** A malformed escape names nothing: 404, as for any unknown path. */
function server_decode(part) {
    try {
        return decodeURIComponent(part);
    }
    catch {
        throw new GitHubError(404, 'Not Found');
    }
}
function existing(ctx, id) {
    const deployment = id === undefined ? undefined : ctx.model.deployment(id);
    if (deployment === undefined)
        throw new GitHubError(404, 'Not Found');
    return deployment;
}
function listDeployments(ctx, call) {
    const q = call.query;
    const filters = ['sha', 'ref', 'task', 'environment'].flatMap((field) => {
        const value = q.get(field);
        return value === null || value === '' ? [] : [(d) => d[field] === value];
    });
    const list = ctx.model.deployments.filter((d) => filters.every((f) => f(d))).reverse(); // newest first
    return page(call, list, (d) => deploymentJson(ctx, d), ctx.api);
}
/** GitHub's compare: `BASE...HEAD`, each part decoded; commits paginated only when the client asks (250 otherwise). */
function compare(ctx, basehead, call) {
    const parts = basehead.split('...');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '')
        throw new GitHubError(404, 'Not Found');
    const [base, head] = parts.map(server_decode);
    const c = ctx.model.compare(base, head);
    const repoHtml = `${HTML}/${ctx.owner}/${ctx.repo}`;
    const body = {
        url: `${ctx.api}/repos/${ctx.owner}/${ctx.repo}/compare/${basehead}`,
        html_url: `${repoHtml}/compare/${basehead}`,
        permalink_url: `${repoHtml}/compare/${ctx.owner}:${c.base.sha}...${ctx.owner}:${c.head.sha}`,
        diff_url: `${repoHtml}/compare/${basehead}.diff`,
        patch_url: `${repoHtml}/compare/${basehead}.patch`,
        base_commit: commitJson(ctx, c.base),
        merge_base_commit: commitJson(ctx, c.mergeBase),
        status: c.status,
        ahead_by: c.aheadBy,
        behind_by: c.behindBy,
        total_commits: c.aheadBy,
        commits: [],
        files: []
    };
    if (!call.query.has('per_page') && !call.query.has('page'))
        return { status: 200, body: { ...body, commits: c.commits.slice(0, 250).map((x) => commitJson(ctx, x)) } };
    const paged = page(call, c.commits, (x) => commitJson(ctx, x), ctx.api);
    return { ...paged, body: { ...body, commits: paged.body } };
}
/** A tag as GitHub's "List repository tags" gives it. */
function tagJson(ctx, tag) {
    const repoApi = `${ctx.api}/repos/${ctx.owner}/${ctx.repo}`;
    return {
        name: tag.name,
        commit: { sha: tag.sha, url: `${repoApi}/commits/${tag.sha}` },
        zipball_url: `${repoApi}/zipball/refs/tags/${encodeURIComponent(tag.name)}`,
        tarball_url: `${repoApi}/tarball/refs/tags/${encodeURIComponent(tag.name)}`,
        node_id: Buffer.from(`Tag:${tag.name}`).toString('base64')
    };
}
/** A page of `items` and GitHub's Link header: prev, next, last, first, each when it applies; none for a single page. */
function page(call, items, render, api) {
    const perPage = clampInt(call.query.get('per_page'), 30, 100);
    const current = clampInt(call.query.get('page'), 1, Number.MAX_SAFE_INTEGER);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (n, rel) => {
        const q = new URLSearchParams(call.query);
        q.set('page', String(n));
        return `<${api}${call.path}?${q.toString()}>; rel="${rel}"`;
    };
    const rels = [
        ...(current > 1 ? [link(current - 1, 'prev')] : []),
        ...(current < last ? [link(current + 1, 'next'), link(last, 'last')] : []),
        ...(current > 1 ? [link(1, 'first')] : [])
    ];
    const body = items.slice((current - 1) * perPage, current * perPage).map(render);
    return { status: 200, body, ...(rels.length > 0 ? { headers: { link: rels.join(', ') } } : {}) };
}
function clampInt(value, fallback, max) {
    const n = value === null ? NaN : Number.parseInt(value, 10);
    return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : fallback;
}
// --- request bodies, checked as GitHub's schema does ---
function invalid(detail) {
    return new GitHubError(422, `Invalid request.\n\n${detail}`);
}
function objectBody(json) {
    if (typeof json !== 'object' || json === null || Array.isArray(json))
        throw invalid('Invalid input: the body must be a JSON object.');
    return json;
}
function field(body, name, type) {
    const value = body[name];
    if (value === undefined)
        return undefined;
    if (typeof value !== type)
        throw invalid(`For 'properties/${name}', ${JSON.stringify(value)} is not a ${type}.`);
    return value;
}
function deploymentInput(json) {
    const body = objectBody(json);
    const ref = field(body, 'ref', 'string');
    if (ref === undefined)
        throw invalid('"ref" wasn\'t supplied.');
    const contexts = body.required_contexts;
    if (contexts !== undefined && (!Array.isArray(contexts) || contexts.some((c) => typeof c !== 'string'))) {
        throw invalid(`For 'properties/required_contexts', ${JSON.stringify(contexts)} is not an array of strings.`);
    }
    const payload = body.payload;
    if (payload !== undefined && typeof payload !== 'string' && (typeof payload !== 'object' || payload === null || Array.isArray(payload))) {
        throw invalid(`For 'properties/payload', ${JSON.stringify(payload)} is not an object or a string.`);
    }
    const input = { ref };
    const strings = ['environment', 'description', 'task'];
    for (const name of strings) {
        const value = field(body, name, 'string');
        if (value !== undefined)
            input[name] = value;
    }
    const booleans = ['auto_merge', 'production_environment', 'transient_environment'];
    for (const name of booleans) {
        const value = field(body, name, 'boolean');
        if (value !== undefined)
            input[name] = value;
    }
    if (payload !== undefined)
        input.payload = payload;
    if (contexts !== undefined)
        input.required_contexts = contexts;
    return input;
}
/** Labels as GitHub takes them: names, or objects with a name. */
function labelList(body) {
    const labels = body.labels;
    if (labels === undefined)
        return undefined;
    const names = Array.isArray(labels) ? labels.map((l) => (typeof l === 'string' ? l : l?.name)) : undefined;
    if (names === undefined || names.some((n) => typeof n !== 'string'))
        throw invalid(`For 'properties/labels', ${JSON.stringify(labels)} is not an array.`);
    return names;
}
function nullableString(body, name) {
    return body[name] === null ? null : field(body, name, 'string');
}
function issueInput(json) {
    const body = objectBody(json);
    const title = body.title;
    if (title === undefined || title === null || title === '')
        throw invalid('"title" wasn\'t supplied.');
    if (typeof title !== 'string' && typeof title !== 'number')
        throw invalid(`For 'properties/title', ${JSON.stringify(title)} is not a string or integer.`);
    const input = { title: String(title) };
    const text = nullableString(body, 'body');
    if (text !== undefined)
        input.body = text;
    const labels = labelList(body);
    if (labels !== undefined)
        input.labels = labels;
    return input;
}
function issueChange(json) {
    const body = objectBody(json);
    const change = {};
    const title = field(body, 'title', 'string');
    if (title !== undefined)
        change.title = title;
    const text = nullableString(body, 'body');
    if (text !== undefined)
        change.body = text;
    const state = body.state;
    if (state !== undefined && state !== 'open' && state !== 'closed') {
        throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Issue', code: 'invalid', field: 'state' }] });
    }
    if (state !== undefined)
        change.state = state;
    const reason = body.state_reason;
    if (reason !== undefined && reason !== null && !ISSUE_STATE_REASONS.includes(reason)) {
        throw invalid(`For 'properties/state_reason', ${JSON.stringify(reason)} is not one of ${ISSUE_STATE_REASONS.join(', ')}.`);
    }
    if (reason !== undefined)
        change.state_reason = reason;
    const labels = labelList(body);
    if (labels !== undefined)
        change.labels = labels;
    return change;
}
function labelInput(json) {
    const body = objectBody(json);
    const name = field(body, 'name', 'string');
    if (name === undefined || name === '')
        throw invalid('"name" wasn\'t supplied.');
    const color = field(body, 'color', 'string');
    if (color !== undefined && !/^[0-9a-fA-F]{6}$/.test(color)) {
        throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Label', code: 'invalid', field: 'color' }] });
    }
    const description = field(body, 'description', 'string');
    if (description !== undefined && description.length > 100) {
        throw new GitHubError(422, 'Validation Failed', { errors: [{ resource: 'Label', code: 'invalid', field: 'description' }] });
    }
    return [name, color, description ?? null];
}
function statusInput(json) {
    const body = objectBody(json);
    const state = body.state;
    if (typeof state !== 'string' || !DEPLOYMENT_STATES.includes(state)) {
        throw new GitHubError(422, 'Validation Failed', {
            errors: [{ resource: 'DeploymentStatus', code: 'custom', field: 'state', message: 'state is not included in the list' }]
        });
    }
    const input = { state: state };
    const strings = ['description', 'log_url', 'target_url', 'environment_url', 'environment'];
    for (const name of strings) {
        const value = field(body, name, 'string');
        if (value !== undefined)
            input[name] = value;
    }
    // "The maximum description length is 140 characters": characters, not UTF-16 units.
    if (input.description !== undefined && [...input.description].length > DESCRIPTION_LIMIT) {
        throw new GitHubError(422, 'Validation Failed', {
            errors: [
                { resource: 'DeploymentStatus', code: 'custom', field: 'description', message: `description is too long (maximum is ${DESCRIPTION_LIMIT} characters)` }
            ]
        });
    }
    const autoInactive = field(body, 'auto_inactive', 'boolean');
    if (autoInactive !== undefined)
        input.auto_inactive = autoInactive;
    return input;
}
// --- GitHub's JSON objects ---
/** GitHub's legacy global node id: base64 of `0<type length>:<Type><id>`. */
function nodeId(type, id) {
    return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}
/** GitHub's simple-user: every field its OpenAPI description requires, the URL templates as GitHub writes them. */
function userJson(ctx, login) {
    const bot = login.endsWith('[bot]');
    const id = login === DEFAULT_CREATOR ? 41898282 : Number.parseInt(Buffer.from(login).toString('hex').slice(0, 7) || '1', 16);
    const url = `${ctx.api}/users/${encodeURIComponent(login)}`;
    return {
        login,
        id,
        node_id: nodeId(bot ? 'Bot' : 'User', id),
        avatar_url: `https://avatars.githubusercontent.com/${bot ? 'in/15368' : `u/${id}`}?v=4`,
        gravatar_id: '',
        url,
        html_url: bot ? `${HTML}/apps/${login.replace(/\[bot\]$/, '')}` : `${HTML}/${login}`,
        followers_url: `${url}/followers`,
        following_url: `${url}/following{/other_user}`,
        gists_url: `${url}/gists{/gist_id}`,
        starred_url: `${url}/starred{/owner}{/repo}`,
        subscriptions_url: `${url}/subscriptions`,
        organizations_url: `${url}/orgs`,
        repos_url: `${url}/repos`,
        events_url: `${url}/events{/privacy}`,
        received_events_url: `${url}/received_events`,
        type: bot ? 'Bot' : 'User',
        user_view_type: 'public',
        site_admin: false
    };
}
function repoUrl(ctx) {
    return `${ctx.api}/repos/${ctx.owner}/${ctx.repo}`;
}
function deploymentJson(ctx, d) {
    const url = `${repoUrl(ctx)}/deployments/${d.id}`;
    return {
        url,
        id: d.id,
        node_id: nodeId('Deployment', d.id),
        sha: d.sha,
        ref: d.ref,
        task: d.task,
        payload: d.payload,
        original_environment: d.original_environment,
        environment: d.environment,
        description: d.description,
        creator: userJson(ctx, d.creator),
        created_at: d.created_at,
        updated_at: d.updated_at,
        statuses_url: `${url}/statuses`,
        repository_url: repoUrl(ctx),
        transient_environment: d.transient_environment,
        production_environment: d.production_environment,
        performed_via_github_app: null
    };
}
function statusJson(ctx, s) {
    const deploymentUrl = `${repoUrl(ctx)}/deployments/${s.deployment_id}`;
    return {
        url: `${deploymentUrl}/statuses/${s.id}`,
        id: s.id,
        node_id: nodeId('DeploymentStatus', s.id),
        state: s.state,
        creator: userJson(ctx, s.creator),
        description: s.description,
        environment: s.environment,
        target_url: s.target_url,
        created_at: s.created_at,
        updated_at: s.updated_at,
        deployment_url: deploymentUrl,
        repository_url: repoUrl(ctx),
        environment_url: s.environment_url,
        log_url: s.log_url,
        performed_via_github_app: null
    };
}
function labelJson(ctx, l) {
    return {
        id: l.id,
        node_id: nodeId('Label', l.id),
        url: `${repoUrl(ctx)}/labels/${encodeURIComponent(l.name)}`,
        name: l.name,
        color: l.color,
        default: l.default,
        description: l.description
    };
}
function issueJson(ctx, i) {
    const url = `${repoUrl(ctx)}/issues/${i.number}`;
    const html = `${HTML}/${ctx.owner}/${ctx.repo}/${i.pullRequest ? 'pull' : 'issues'}/${i.number}`;
    return {
        url,
        repository_url: repoUrl(ctx),
        labels_url: `${url}/labels{/name}`,
        comments_url: `${url}/comments`,
        events_url: `${url}/events`,
        html_url: html,
        id: i.id,
        node_id: nodeId('Issue', i.id),
        number: i.number,
        title: i.title,
        user: userJson(ctx, i.user),
        labels: i.labels.flatMap((name) => {
            const label = ctx.model.label(name);
            return label === undefined ? [] : [labelJson(ctx, label)];
        }),
        state: i.state,
        locked: false,
        assignee: null,
        assignees: [],
        milestone: null,
        comments: i.comments.length,
        created_at: i.created_at,
        updated_at: i.updated_at,
        closed_at: i.closed_at,
        author_association: 'NONE',
        active_lock_reason: null,
        body: i.body,
        closed_by: i.closed_by === null ? null : userJson(ctx, i.closed_by),
        state_reason: i.state_reason,
        performed_via_github_app: null,
        ...(i.pullRequest
            ? { pull_request: { url: `${repoUrl(ctx)}/pulls/${i.number}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`, merged_at: null } }
            : {})
    };
}
function commentJson(ctx, issue, c) {
    return {
        id: c.id,
        node_id: nodeId('IssueComment', c.id),
        url: `${repoUrl(ctx)}/issues/comments/${c.id}`,
        html_url: `${HTML}/${ctx.owner}/${ctx.repo}/issues/${issue.number}#issuecomment-${c.id}`,
        body: c.body,
        user: userJson(ctx, c.user),
        created_at: c.created_at,
        updated_at: c.updated_at,
        issue_url: `${repoUrl(ctx)}/issues/${issue.number}`,
        author_association: 'NONE',
        performed_via_github_app: null
    };
}
/** A pull request as GitHub's pull-request-simple gives it: the fields a client reads (number, state, title, user, links, merge). */
function pullJson(ctx, p) {
    const url = `${repoUrl(ctx)}/pulls/${p.number}`;
    const html = `${HTML}/${ctx.owner}/${ctx.repo}/pull/${p.number}`;
    return {
        url,
        id: p.id,
        node_id: nodeId('PullRequest', p.id),
        html_url: html,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        issue_url: `${repoUrl(ctx)}/issues/${p.number}`,
        commits_url: `${url}/commits`,
        number: p.number,
        state: p.state,
        locked: false,
        title: p.title,
        user: userJson(ctx, p.user),
        body: p.body,
        labels: [],
        created_at: p.created_at,
        updated_at: p.updated_at,
        closed_at: p.closed_at,
        merged_at: p.closed_at,
        author_association: 'NONE',
        draft: false
    };
}
function commitJson(ctx, c) {
    const person = { name: c.author?.name ?? 'Stand-in Author', email: c.author?.email ?? 'author@example.com', date: c.date };
    const login = c.author?.login;
    return {
        sha: c.sha,
        node_id: Buffer.from(`06:Commit${c.sha}`).toString('base64'),
        commit: {
            author: person,
            committer: person,
            message: c.message,
            tree: { sha: c.sha, url: `${repoUrl(ctx)}/git/trees/${c.sha}` }, // no trees in the model: the commit's sha stands in
            url: `${repoUrl(ctx)}/git/commits/${c.sha}`,
            comment_count: 0,
            verification: { verified: false, reason: 'unsigned', signature: null, payload: null }
        },
        url: `${repoUrl(ctx)}/commits/${c.sha}`,
        html_url: `${HTML}/${ctx.owner}/${ctx.repo}/commit/${c.sha}`,
        comments_url: `${repoUrl(ctx)}/commits/${c.sha}/comments`,
        // GitHub's user whose verified email the commit's author email is; null when none matches.
        author: login === undefined ? null : userJson(ctx, login),
        committer: login === undefined ? null : userJson(ctx, login),
        parents: c.parents.map((p) => ({ sha: p, url: `${repoUrl(ctx)}/commits/${p}`, html_url: `${HTML}/${ctx.owner}/${ctx.repo}/commit/${p}` }))
    };
}
// --- HTTP ---
async function server_readBody(req) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        size += chunk.length;
        if (size <= BODY_LIMIT + 1)
            chunks.push(chunk); // read to the end: leaving early would destroy the socket before the answer
    }
    return Buffer.concat(chunks);
}
function server_parseJson(raw) {
    try {
        return JSON.parse(raw.toString('utf8'));
    }
    catch {
        return undefined;
    }
}
/** GitHub's headers on every answer: the request id clients log, the media type, the rate limit. */
function send(res, answer, n) {
    const text = JSON.stringify(answer.body);
    const hex = (value, width) => value.toString(16).toUpperCase().padStart(width, '0').slice(-width);
    res.writeHead(answer.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(text)),
        'x-github-request-id': `${hex(process.pid, 4)}:${hex(n, 4)}:${hex(n * 7919, 6)}:${hex(n * 104729, 6)}:${hex(Math.floor(Date.now() / 1000), 8)}`,
        'x-github-media-type': 'github.v3; format=json',
        'x-github-api-version-selected': '2022-11-28',
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': String(Math.max(0, 5000 - n)),
        'x-ratelimit-used': String(n),
        'x-ratelimit-resource': 'core',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
        ...answer.headers
    });
    res.end(text);
}

;// CONCATENATED MODULE: ./src/emulator/gitlab/errors.ts
// An answer GitLab gives instead of doing the thing, in the body GitLab writes for it: `{message}` for its own
// refusals ("404 Commit Not Found", a model's validation errors by field), `{error}` for a parameter its API framework
// refuses before the endpoint runs ("sha is missing", "status does not have a valid value").
class GitLabError extends Error {
    status;
    body;
    name = 'GitLabError';
    constructor(status, body) {
        super(typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : JSON.stringify(body));
        this.status = status;
        this.body = body;
    }
    /** `{"message": "404 <What> Not Found"}`, as GitLab's not_found! writes it. */
    static notFound(what) {
        return new GitLabError(404, { message: `404 ${what} Not Found` });
    }
    /** `{"message": ...}` with any status: a sentence, or fields and their errors. */
    static message(status, message) {
        return new GitLabError(status, { message });
    }
    /** A record GitLab could not save: 400 with its errors by field. */
    static validation(errors) {
        return new GitLabError(400, { message: errors });
    }
    /** Parameters refused before the endpoint runs: 400 `{"error": "a is missing, b is invalid"}`. */
    static params(problems) {
        return new GitLabError(400, { error: problems.join(', ') });
    }
}

;// CONCATENATED MODULE: ./src/emulator/gitlab/model.ts
// The project the GitLab API stand-in answers about: its repository (../commit-graph.ts), environments and their
// deployments, issues with their labels and notes, merge requests. GitLab's rules live here (a deployment's state
// machine, the validations of a new deployment, a label taken); no HTTP (server.ts renders it as GitLab's JSON), so
// tests and the simulation can seed history directly, as another job or person would have left it.



/** A deployment's statuses (GitLab's enum); a client may create or set only running, success, failed and canceled. */
const DEPLOYMENT_STATUSES = ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'];
const SETTABLE_STATUSES = ['running', 'success', 'failed', 'canceled'];
const FINISHED = ['success', 'failed', 'canceled'];
const ENVIRONMENT_TIERS = ['production', 'staging', 'testing', 'development', 'other'];
const DEFAULT_USER = { id: 1, username: 'project_1_bot', name: 'Deploy bot' };
/** The color GitLab gives a label it creates for an issue that names it. */
const DEFAULT_LABEL_COLOR = '#6699cc';
const ENVIRONMENT_NAME = /^[a-zA-Z0-9 _/${}.-]+$/;
const ENVIRONMENT_NAME_RULE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'";
class GitLabModel {
    project;
    now;
    graph;
    environmentList = [];
    deploymentList = [];
    issueList = [];
    labelList = [];
    mergeRequestList = [];
    nextId = { environment: 10, deployment: 500, issue: 7000, note: 90_000, label: 30, mergeRequest: 2000 };
    nextIid = { deployment: 1, issue: 1, mergeRequest: 1 };
    constructor(project, now = Date.now) {
        this.project = project;
        this.now = now;
        this.graph = new CommitGraph(now);
    }
    // --- the repository ---
    /** Adds a commit (dated now unless `date` says); its parents need not be known. */
    commit(sha, parents = [], message, author, date) {
        return this.graph.commit(sha, parents, message, author, date);
    }
    linear(branch, shas, dates) {
        return this.graph.linear(branch, shas, dates);
    }
    branch(name, sha) {
        this.graph.branch(name, sha);
    }
    tag(name, sha) {
        this.graph.tag(name, sha);
    }
    annotatedTag(name, sha, message) {
        return this.graph.annotatedTag(name, sha, message);
    }
    /** A sha, a short sha, a branch or a tag, as GitLab's commit lookup takes it; 404 Commit Not Found. */
    commitOf(ref) {
        const commit = this.graph.commitOf(ref);
        if (commit === undefined)
            throw GitLabError.notFound('Commit');
        return commit;
    }
    /** GitLab's compare: the commits of `to` that `from` lacks; an unknown ref is 404 Ref Not Found. */
    compare(fromRef, toRef) {
        const from = this.graph.commitOf(fromRef);
        const to = this.graph.commitOf(toRef);
        if (from === undefined || to === undefined)
            throw GitLabError.notFound('Ref');
        if (from.sha === to.sha)
            return { from, to, commits: [], same: true };
        return { from, to, commits: this.graph.relate(from, to).ahead, same: false };
    }
    /** GitLab's merge base of two or more refs: 400 for fewer than two or an unknown one, 404 when they share no history. */
    mergeBase(refs) {
        if (refs.length < 2)
            throw GitLabError.message(400, 'Provide at least 2 refs');
        const unknown = refs.filter((r) => this.graph.commitOf(r) === undefined);
        if (unknown.length > 0)
            throw GitLabError.message(400, `Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`);
        const [first, ...rest] = refs.map((r) => this.graph.commitOf(r));
        let base = first;
        for (const next of rest) {
            if (base === undefined)
                break;
            base = this.graph.relate(base, next).mergeBase;
        }
        if (base === undefined)
            throw GitLabError.notFound('Merge Base');
        return base;
    }
    /** The branches by name, as GitLab lists them. */
    get branches() {
        return this.graph.branchEntries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    branchNamed(name) {
        const sha = this.graph.branchTip(name);
        if (sha === undefined)
            throw GitLabError.notFound('Branch');
        return { name, sha };
    }
    /** The tags, the last made first; the server orders them as asked. */
    get tags() {
        return this.graph.tagEntries.reverse();
    }
    // --- environments and deployments ---
    get environments() {
        return [...this.environmentList];
    }
    environment(name) {
        return this.environmentList.find((e) => e.name === name);
    }
    environmentOf(deployment) {
        return this.environmentList.find((e) => e.id === deployment.environment_id);
    }
    /** The environment of that name, created when missing as GitLab does for a new deployment; 400 for a name GitLab refuses. */
    ensureEnvironment(name, externalUrl = null) {
        const existing = this.environment(name);
        if (existing !== undefined)
            return existing;
        if (name === '' || name.length > 255 || !ENVIRONMENT_NAME.test(name) || name.startsWith('/') || name.endsWith('/')) {
            throw GitLabError.validation({ name: [ENVIRONMENT_NAME_RULE] });
        }
        const time = this.time();
        const environment = {
            id: this.nextId.environment++,
            name,
            slug: slugOf(name),
            external_url: externalUrl,
            state: 'available',
            tier: tierOf(name),
            created_at: time,
            updated_at: time
        };
        this.environmentList.push(environment);
        return environment;
    }
    /**
     * What PUT /environments/:id does: the external URL (null clears it; GitLab takes only an http(s) address) and the
     * tier; another id is 404 Not found.
     */
    updateEnvironment(id, change) {
        const environment = this.environmentList.find((e) => e.id === id);
        if (environment === undefined)
            throw GitLabError.message(404, '404 Not found');
        if (change.externalUrl !== undefined && change.externalUrl !== null && !isHttpUrl(change.externalUrl))
            throw GitLabError.validation({ external_url: ['is blocked: Only allowed schemes are http, https'] });
        if (change.externalUrl !== undefined)
            environment.external_url = change.externalUrl;
        if (change.tier !== undefined)
            environment.tier = change.tier;
        environment.updated_at = this.time();
        return environment;
    }
    /** Oldest first; a copy of the list (the deployments themselves are live). */
    get deployments() {
        return [...this.deploymentList];
    }
    deployment(id) {
        const deployment = this.deploymentList.find((d) => d.id === id);
        if (deployment === undefined)
            throw GitLabError.message(404, '404 Not found');
        return deployment;
    }
    /**
     * What POST /deployments does: the ref must name a commit (checked first), the environment is created when missing,
     * the sha must be a commit of the project; the same deploy as the environment's last successful one is answered with
     * that one (GitLab's create service), else a new deployment starts at created and moves to the status given.
     */
    createDeployment(input, user = DEFAULT_USER) {
        if (this.graph.commitOf(input.ref) === undefined)
            throw GitLabError.message(400, { ref: ['The branch or tag does not exist'] });
        const environment = this.ensureEnvironment(input.environment);
        const last = this.lastSuccessful(environment);
        if (last !== undefined && last.ref === input.ref && last.tag === input.tag && last.sha === input.sha && last.status === input.status)
            return last;
        if (this.graph.commitOf(input.sha) === undefined)
            throw GitLabError.validation({ sha: ['The commit does not exist'] });
        const deployment = this.push({ environment, sha: input.sha, ref: input.ref, tag: input.tag, status: 'created', user });
        this.transition(deployment, input.status);
        return deployment;
    }
    /** What PUT /deployments/:id does, by GitLab's state machine: running only from created (or blocked); any other status from any but itself. */
    updateDeployment(id, status) {
        const deployment = this.deployment(id);
        this.transition(deployment, status);
        return deployment;
    }
    /** A deployment as another job or tool left it: any status and times, no check. */
    seedDeployment(seed) {
        const environment = this.ensureEnvironment(seed.environment);
        const deployment = this.push({
            environment,
            sha: seed.sha,
            ref: seed.ref ?? this.project.defaultBranch,
            tag: seed.tag ?? false,
            status: seed.status,
            user: seed.user ?? DEFAULT_USER
        });
        if (seed.created_at !== undefined)
            deployment.created_at = seed.created_at;
        deployment.updated_at = seed.updated_at ?? deployment.created_at;
        deployment.finished_at = seed.finished_at !== undefined ? seed.finished_at : FINISHED.includes(seed.status) ? deployment.updated_at : null;
        return deployment;
    }
    // --- issues, notes, labels ---
    /** Oldest first; a copy of the list (the issues themselves are live). */
    get issues() {
        return [...this.issueList];
    }
    issue(iid) {
        const issue = this.issueList.find((i) => i.iid === iid);
        if (issue === undefined)
            throw GitLabError.notFound('Issue');
        return issue;
    }
    /** What POST /issues does (also seeds one someone else opened); a label it names that the project lacks is created. */
    addIssue(input) {
        const time = this.time();
        const author = input.author ?? DEFAULT_USER;
        const closed = input.state === 'closed';
        const issue = {
            id: this.nextId.issue++,
            iid: this.nextIid.issue++,
            title: input.title,
            description: input.description ?? null,
            state: closed ? 'closed' : 'opened',
            labels: this.labelNames(input.labels ?? []),
            author,
            notes: [],
            created_at: time,
            updated_at: time,
            closed_at: closed ? time : null,
            closed_by: closed ? author : null
        };
        this.issueList.push(issue);
        return issue;
    }
    /** What PUT /issues/:iid does: the fields given; close records when and by whom, reopen clears it. */
    updateIssue(iid, change) {
        const issue = this.issue(iid);
        const time = this.time();
        if (change.title !== undefined)
            issue.title = change.title;
        if (change.description !== undefined)
            issue.description = change.description;
        if (change.labels !== undefined)
            issue.labels = this.labelNames(change.labels);
        if (change.addLabels !== undefined)
            issue.labels = this.labelNames([...issue.labels, ...change.addLabels]);
        if (change.removeLabels !== undefined)
            issue.labels = issue.labels.filter((l) => !change.removeLabels?.includes(l));
        if (change.stateEvent === 'close' && issue.state === 'opened') {
            Object.assign(issue, { state: 'closed', closed_at: time, closed_by: change.user ?? DEFAULT_USER });
        }
        else if (change.stateEvent === 'reopen' && issue.state === 'closed') {
            Object.assign(issue, { state: 'opened', closed_at: null, closed_by: null });
        }
        issue.updated_at = time;
        return issue;
    }
    /** What POST /issues/:iid/notes does. */
    addNote(iid, body, author = DEFAULT_USER) {
        const issue = this.issue(iid);
        const time = this.time();
        const note = { id: this.nextId.note++, body, author, created_at: time, updated_at: time };
        issue.notes.push(note);
        issue.updated_at = time;
        return note;
    }
    get labels() {
        return [...this.labelList];
    }
    /** A label by its id or its name (GitLab's `label_id`); names match with case, as GitLab stores them. */
    label(idOrName) {
        return this.labelList.find((l) => String(l.id) === idOrName) ?? this.labelList.find((l) => l.name === idOrName);
    }
    /** What POST /labels does: a name taken is 409 Label already exists. */
    addLabel(name, color = DEFAULT_LABEL_COLOR, description = null) {
        if (this.labelList.some((l) => l.name === name))
            throw GitLabError.message(409, 'Label already exists');
        const label = { id: this.nextId.label++, name, color, description };
        this.labelList.push(label);
        return label;
    }
    // --- merge requests ---
    get mergeRequests() {
        return [...this.mergeRequestList];
    }
    /** A merge request that brought these commits (for GET .../commits/:sha/merge_requests). */
    addMergeRequest(input) {
        for (const sha of input.commits)
            if (this.graph.getCommit(sha) === undefined)
                throw new Error(`Unknown commit ${sha}: add it with commit() first`);
        const time = this.time();
        const state = input.state ?? 'merged';
        const mr = {
            id: this.nextId.mergeRequest++,
            iid: this.nextIid.mergeRequest++,
            title: input.title,
            state,
            source_branch: input.source_branch ?? `feature-${this.nextIid.mergeRequest - 1}`,
            target_branch: input.target_branch ?? this.project.defaultBranch,
            author: input.author ?? DEFAULT_USER,
            commits: [...input.commits],
            created_at: time,
            updated_at: time,
            merged_at: state === 'merged' ? time : null
        };
        this.mergeRequestList.push(mr);
        return mr;
    }
    /** The merge requests that brought a commit; an unknown commit is 404 Commit Not Found. */
    mergeRequestsOf(ref) {
        const { sha } = this.commitOf(ref);
        return this.mergeRequestList.filter((mr) => mr.commits.includes(sha));
    }
    // --- inside ---
    time() {
        return new Date(this.now()).toISOString();
    }
    push(fields) {
        const time = this.time();
        const deployment = {
            id: this.nextId.deployment++,
            iid: this.nextIid.deployment++,
            ref: fields.ref,
            sha: fields.sha,
            tag: fields.tag,
            status: fields.status,
            created_at: time,
            updated_at: time,
            finished_at: null,
            user: fields.user,
            environment_id: fields.environment.id
        };
        this.deploymentList.push(deployment);
        return deployment;
    }
    /** GitLab's deployment state machine; a transition it refuses is 400 with the event named, as GitLab reports it. */
    transition(deployment, to) {
        const event = { running: 'run', success: 'succeed', failed: 'drop', canceled: 'cancel' }[to];
        const allowed = to === 'running' ? deployment.status === 'created' || deployment.status === 'blocked' : deployment.status !== to;
        if (!allowed)
            throw GitLabError.validation({ status: [`cannot transition via "${event}"`] });
        const time = this.time();
        deployment.status = to;
        deployment.updated_at = time;
        if (FINISHED.includes(to))
            deployment.finished_at = time;
    }
    /** The environment's last successful deployment: the latest finished. */
    lastSuccessful(environment) {
        return this.deploymentList
            .filter((d) => d.environment_id === environment.id && d.status === 'success')
            .sort((a, b) => (a.finished_at ?? '').localeCompare(b.finished_at ?? '') || a.id - b.id)
            .at(-1);
    }
    /** Names as given; one the project lacks is created with GitLab's default color. */
    labelNames(names) {
        const out = [];
        for (const raw of names) {
            const name = raw.trim();
            if (name === '' || out.includes(name))
                continue;
            if (this.label(name) === undefined)
                this.addLabel(name);
            out.push(name);
        }
        return out;
    }
}
function isHttpUrl(value) {
    try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
    }
    catch {
        return false;
    }
}
/** GitLab's slug of an environment: lower case, other characters '-', at most 24; a suffix when the name had to change. */
function slugOf(name) {
    const plain = name
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '-')
        .replace(/^[^a-z]+/, '');
    if (plain === name && plain.length <= 24 && !plain.endsWith('-'))
        return plain;
    const base = (plain === '' ? 'env' : plain).slice(0, 17).replace(/-+$/, '');
    return `${base}-${fakeSha(name).slice(0, 6)}`;
}
/** The tier GitLab guesses from an environment's name. */
function tierOf(name) {
    if (/(dev|review|trunk)/i.test(name))
        return 'development';
    if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name))
        return 'testing';
    if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name))
        return 'staging';
    if (/(pr(o|)d|live)/i.test(name))
        return 'production';
    return 'other';
}
/**
 * The history `brcloud emulator --gitlab` starts with: three commits on main, a branch of two commits off its second
 * (main moved on by one), v1.0.0 (lightweight) on its first and v1.1.0 (annotated) on its second; the commits an hour
 * apart (main's, then the branch's), the last now, so GitLab's tag order (by the tagged commit's date) has something to order.
 */
function model_seedSampleHistory(model, now = Date.now()) {
    const at = (hoursAgo) => new Date(now - hoursAgo * 3_600_000).toISOString();
    const main = model.linear(model.project.defaultBranch, ['sample-1', 'sample-2', 'sample-3'].map(fakeSha), [at(4), at(3), at(2)]);
    const [first = '', second = ''] = main;
    const name = 'feature/search';
    model.branch(name, second);
    const commits = model.linear(name, ['sample-feature-1', 'sample-feature-2'].map(fakeSha), [at(2), at(1)]);
    model.tag('v1.0.0', first);
    model.annotatedTag('v1.1.0', second, 'Release 1.1.0');
    return {
        main,
        branch: { name, commits },
        tags: [
            { name: 'v1.0.0', commit: first, annotated: false },
            { name: 'v1.1.0', commit: second, annotated: true }
        ]
    };
}

;// CONCATENATED MODULE: ./src/emulator/gitlab/params.ts
// A request's parameters as GitLab's API framework reads them: the query (`refs[]=a&refs[]=b` an array, a name given
// twice its last value), then a JSON or form body over it; each endpoint declares what it requires, of which type and
// values, and the framework refuses the rest before the endpoint runs (400 `{"error": "sha is missing, tag is invalid"}`).
// And offset pagination: `page`, `per_page` (default 20, at most 100), the Link and X-* headers GitLab writes.

/** The query's parameters: a name ending in [] collects an array, any other name keeps its last value. */
function queryParams(query) {
    const out = {};
    for (const [key, value] of query) {
        if (key.endsWith('[]')) {
            const name = key.slice(0, -2);
            const list = Array.isArray(out[name]) ? out[name] : [];
            out[name] = [...list, value];
        }
        else
            out[key] = value;
    }
    return out;
}
/** A body as GitLab takes it: JSON (an object), or a form; undefined for a body it cannot read. */
function bodyParams(raw, contentType) {
    if (raw.length === 0)
        return {};
    const text = raw.toString('utf8');
    const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (type === 'application/x-www-form-urlencoded')
        return queryParams(new URLSearchParams(text));
    try {
        const json = JSON.parse(text);
        return typeof json === 'object' && json !== null && !Array.isArray(json) ? json : undefined;
    }
    catch {
        return type === 'application/json' ? undefined : queryParams(new URLSearchParams(text));
    }
}
const TRUE = ['true', '1', 't', 'yes', 'y', 'on'];
const FALSE = ['false', '0', 'f', 'no', 'n', 'off'];
/** Reads declared parameters, collecting the framework's refusals; `done()` throws them all at once, as GitLab answers. */
class ParamReader {
    params;
    problems = [];
    constructor(params) {
        this.params = params;
    }
    string(name, required = false) {
        const value = this.params[name];
        if (value === undefined || value === null)
            return this.missing(name, required);
        if (typeof value === 'string' || typeof value === 'number')
            return String(value);
        return this.invalid(name);
    }
    boolean(name, required = false) {
        const value = this.params[name];
        if (value === undefined || value === null)
            return this.missing(name, required);
        if (typeof value === 'boolean')
            return value;
        const word = String(value).toLowerCase();
        if (TRUE.includes(word))
            return true;
        if (FALSE.includes(word))
            return false;
        return this.invalid(name);
    }
    /** One of `values`, else the framework's "does not have a valid value"; `fallback` when absent. */
    oneOf(name, values, fallback, required = false) {
        const value = this.string(name, required);
        if (value === undefined)
            return fallback;
        if (values.includes(value))
            return value;
        this.problems.push(`${name} does not have a valid value`);
        return undefined;
    }
    integer(name, required = false) {
        const value = this.params[name];
        if (value === undefined || value === null)
            return this.missing(name, required);
        if (/^-?\d+$/.test(String(value)))
            return Number(value);
        return this.invalid(name);
    }
    /** A list given as an array, or as one comma-separated string (labels=a,b). */
    list(name, required = false) {
        const value = this.params[name];
        if (value === undefined || value === null)
            return this.missing(name, required);
        const items = Array.isArray(value) ? value.map(String) : String(value).split(',');
        return items.map((i) => i.trim()).filter((i) => i !== '');
    }
    date(name) {
        const value = this.string(name);
        if (value === undefined)
            return undefined;
        const ms = Date.parse(value);
        return Number.isNaN(ms) ? this.invalid(name) : ms;
    }
    done() {
        if (this.problems.length > 0)
            throw GitLabError.params(this.problems);
    }
    missing(name, required) {
        if (required)
            this.problems.push(`${name} is missing`);
        return undefined;
    }
    invalid(name) {
        this.problems.push(`${name} is invalid`);
        return undefined;
    }
}
const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;
/**
 * One page of `items` and GitLab's headers: X-Page, X-Per-Page, X-Next-Page and X-Prev-Page (empty when none), X-Total,
 * X-Total-Pages, and Link (prev and next when they exist, first and last always), each link the request's address with
 * its parameters, the project's `id` among them, and page and per_page, sorted by name as GitLab writes them.
 */
function paginate(items, reader, self) {
    const askedPerPage = reader.integer('per_page');
    const askedPage = reader.integer('page');
    reader.done();
    const perPage = askedPerPage === undefined || askedPerPage < 1 ? DEFAULT_PER_PAGE : Math.min(askedPerPage, MAX_PER_PAGE);
    const page = askedPage === undefined || askedPage < 1 ? 1 : askedPage;
    const totalPages = Math.max(1, Math.ceil(items.length / perPage));
    const next = page < totalPages ? page + 1 : undefined;
    const prev = page > 1 && page <= totalPages ? page - 1 : undefined;
    const href = (n) => {
        const q = new URLSearchParams(self.query);
        q.set('id', self.id);
        q.set('page', String(n));
        q.set('per_page', String(perPage));
        q.sort();
        return `${self.base}${self.path}?${q.toString()}`;
    };
    const links = [
        ...(prev !== undefined ? [`<${href(prev)}>; rel="prev"`] : []),
        ...(next !== undefined ? [`<${href(next)}>; rel="next"`] : []),
        `<${href(1)}>; rel="first"`,
        `<${href(totalPages)}>; rel="last"`
    ];
    return {
        items: items.slice((page - 1) * perPage, page * perPage),
        headers: {
            'x-per-page': String(perPage),
            'x-page': String(page),
            'x-next-page': next === undefined ? '' : String(next),
            'x-prev-page': prev === undefined ? '' : String(prev),
            link: links.join(', '),
            'x-total': String(items.length),
            'x-total-pages': String(totalPages)
        }
    };
}

;// CONCATENATED MODULE: ./src/emulator/gitlab/json.ts
function projectWeb(v) {
    return `${v.base}/${v.model.project.path}`;
}
/** Git's dates as GitLab gives a commit's: milliseconds and an offset. */
function gitDate(iso) {
    return new Date(iso).toISOString().replace(/Z$/, '+00:00');
}
function json_userJson(v, user) {
    return {
        id: user.id,
        username: user.username,
        name: user.name,
        state: 'active',
        locked: false,
        avatar_url: `https://www.gravatar.com/avatar/${user.id}?s=80&d=identicon`,
        web_url: `${v.base}/${user.username}`
    };
}
function projectJson(v) {
    const { id, path, defaultBranch } = v.model.project;
    const parts = path.split('/');
    const name = parts.at(-1) ?? path;
    const namespace = parts.slice(0, -1).join('/');
    return {
        id,
        description: null,
        name,
        name_with_namespace: parts.join(' / '),
        path: name,
        path_with_namespace: path,
        created_at: '2024-01-01T00:00:00.000Z',
        default_branch: defaultBranch,
        visibility: 'private',
        archived: false,
        empty_repo: false,
        web_url: projectWeb(v),
        http_url_to_repo: `${projectWeb(v)}.git`,
        ssh_url_to_repo: `git@${new URL(v.base).hostname}:${path}.git`,
        readme_url: null,
        namespace: { id: id + 100, name: parts.at(-2) ?? namespace, path: parts.at(-2) ?? namespace, kind: 'group', full_path: namespace }
    };
}
function json_commitJson(v, c) {
    const [title = ''] = c.message.split('\n');
    const date = gitDate(c.date);
    const name = c.author?.name ?? 'Stand-in Author';
    const email = c.author?.email ?? 'author@example.com';
    return {
        id: c.sha,
        short_id: c.sha.slice(0, 8),
        created_at: date,
        parent_ids: [...c.parents],
        title,
        message: c.message,
        author_name: name,
        author_email: email,
        authored_date: date,
        committer_name: name,
        committer_email: email,
        committed_date: date,
        trailers: {},
        extended_trailers: {},
        web_url: `${projectWeb(v)}/-/commit/${c.sha}`
    };
}
/** A single commit: the commit and what GitLab adds to it alone (its project, no pipeline here). */
function commitDetailJson(v, c) {
    return { ...json_commitJson(v, c), stats: { additions: 0, deletions: 0, total: 0 }, status: null, project_id: v.model.project.id, last_pipeline: null };
}
function compareJson(v, c, from, to) {
    return {
        commit: c.commits.length === 0 ? null : json_commitJson(v, c.commits.at(-1)),
        commits: c.commits.map((x) => json_commitJson(v, x)),
        diffs: [],
        compare_timeout: false,
        compare_same_ref: c.same,
        web_url: `${projectWeb(v)}/-/compare/${from}...${to}`
    };
}
function branchJson(v, b) {
    const commit = v.model.graph.getCommit(b.sha);
    const isDefault = b.name === v.model.project.defaultBranch;
    return {
        name: b.name,
        merged: false,
        protected: isDefault,
        default: isDefault,
        developers_can_push: false,
        developers_can_merge: false,
        can_push: true,
        web_url: `${projectWeb(v)}/-/tree/${b.name}`,
        commit: json_commitJson(v, commit)
    };
}
/** A tag: `target` is the tag object's sha for an annotated tag, the commit's for a lightweight one (whose message is null). */
function json_tagJson(v, t) {
    const object = v.model.graph.tagObject(t.name);
    const commit = v.model.graph.getCommit(t.sha);
    return {
        name: t.name,
        message: object?.message ?? null,
        target: object?.sha ?? t.sha,
        commit: json_commitJson(v, commit),
        release: null,
        protected: false,
        created_at: object === undefined ? null : gitDate(commit.date)
    };
}
function json_environmentJson(e) {
    return {
        id: e.id,
        name: e.name,
        slug: e.slug,
        external_url: e.external_url,
        state: e.state,
        tier: e.tier,
        created_at: e.created_at,
        updated_at: e.updated_at,
        auto_stop_at: null
    };
}
/** A deployment; its environment as GitLab's basic environment entity (no state there). A deployment made by the API has no job (deployable null). */
function json_deploymentJson(v, d) {
    const e = v.model.environmentOf(d);
    return {
        id: d.id,
        iid: d.iid,
        ref: d.ref,
        sha: d.sha,
        created_at: d.created_at,
        updated_at: d.updated_at,
        finished_at: d.finished_at,
        status: d.status,
        user: json_userJson(v, d.user),
        environment: { id: e.id, name: e.name, slug: e.slug, external_url: e.external_url, created_at: e.created_at, updated_at: e.updated_at },
        deployable: null
    };
}
function json_issueJson(v, i) {
    const web = `${projectWeb(v)}/-/issues/${i.iid}`;
    return {
        id: i.id,
        iid: i.iid,
        project_id: v.model.project.id,
        title: i.title,
        description: i.description,
        state: i.state,
        created_at: i.created_at,
        updated_at: i.updated_at,
        closed_at: i.closed_at,
        closed_by: i.closed_by === null ? null : json_userJson(v, i.closed_by),
        labels: [...i.labels],
        milestone: null,
        assignees: [],
        assignee: null,
        author: json_userJson(v, i.author),
        type: 'ISSUE',
        issue_type: 'issue',
        user_notes_count: i.notes.length,
        merge_requests_count: 0,
        upvotes: 0,
        downvotes: 0,
        confidential: false,
        discussion_locked: null,
        web_url: web,
        references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${v.model.project.path}#${i.iid}` }
    };
}
function noteJson(v, issue, n) {
    return {
        id: n.id,
        type: null,
        body: n.body,
        author: json_userJson(v, n.author),
        created_at: n.created_at,
        updated_at: n.updated_at,
        system: false,
        noteable_id: issue.id,
        noteable_type: 'Issue',
        noteable_iid: issue.iid,
        project_id: v.model.project.id,
        resolvable: false,
        confidential: false,
        internal: false
    };
}
function json_labelJson(v, l) {
    const count = (state) => v.model.issues.filter((i) => i.state === state && i.labels.includes(l.name)).length;
    return {
        id: l.id,
        name: l.name,
        description: l.description,
        description_html: l.description ?? '',
        text_color: textColor(l.color),
        color: l.color,
        subscribed: false,
        priority: null,
        is_project_label: true,
        open_issues_count: count('opened'),
        closed_issues_count: count('closed'),
        open_merge_requests_count: 0
    };
}
/** White on a dark label, dark on a light one, as GitLab picks the text's color. */
function textColor(color) {
    const hex = color.length === 4 ? [...color.slice(1)].map((c) => c + c).join('') : color.slice(1);
    const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    return r * 0.299 + g * 0.587 + b * 0.114 > 186 ? '#333333' : '#FFFFFF';
}
function mergeRequestJson(v, mr) {
    return {
        id: mr.id,
        iid: mr.iid,
        project_id: v.model.project.id,
        title: mr.title,
        description: null,
        state: mr.state,
        created_at: mr.created_at,
        updated_at: mr.updated_at,
        merged_at: mr.merged_at,
        closed_at: null,
        target_branch: mr.target_branch,
        source_branch: mr.source_branch,
        author: json_userJson(v, mr.author),
        labels: [],
        draft: false,
        sha: mr.commits.at(-1) ?? null,
        merge_commit_sha: null,
        references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${v.model.project.path}!${mr.iid}` },
        web_url: `${projectWeb(v)}/-/merge_requests/${mr.iid}`
    };
}

;// CONCATENATED MODULE: ./src/emulator/gitlab/routes.ts




/** The routes that change something: a token with only read_api is refused them. */
const WRITE_ROUTES = [
    'create-deployment',
    'update-deployment',
    'update-environment',
    'create-issue',
    'update-issue',
    'create-note',
    'create-label'
];
/** Those a Reporter may not do (GitLab's create_deployment, update_deployment and update_environment need a Developer). */
const DEVELOPER_ROUTES = ['create-deployment', 'update-deployment', 'update-environment'];
/** A path segment decoded; a malformed escape names nothing. */
function decoded(part) {
    if (part === undefined || part === '')
        return undefined;
    try {
        return decodeURIComponent(part);
    }
    catch {
        return undefined;
    }
}
/** The route of a method and path; undefined is GitLab's 404 `{"error": "404 Not Found"}`. */
function routes_match(method, pathname) {
    const parts = pathname.split('/').slice(1);
    const [api, version, projects, id, ...rest] = parts;
    const project = decoded(id);
    if (api !== 'api' || version !== 'v4' || projects !== 'projects' || project === undefined)
        return undefined;
    const key = `${method} ${rest.map((p, i) => (i === 0 || (rest[0] === 'repository' && i === 1) ? p : ':')).join('/')}`;
    const route = ROUTES[key];
    if (route === undefined)
        return undefined;
    const variable = rest.length > 1 && ROUTES_WITH_ARG.has(route) ? decoded(rest[rest[0] === 'repository' ? 2 : 1]) : undefined;
    if (ROUTES_WITH_ARG.has(route) && variable === undefined)
        return undefined;
    const tail = TAILS[route];
    if (tail !== undefined && rest.at(-1) !== tail)
        return undefined; // issues/1/comments names nothing
    return { route, project, ...(variable !== undefined && { arg: variable }) };
}
const ROUTES = {
    'GET ': 'get-project',
    'GET repository/commits/:': 'get-commit',
    'GET repository/commits/:/:': 'commit-merge-requests',
    'GET repository/compare': 'compare',
    'GET repository/merge_base': 'merge-base',
    'GET repository/branches': 'list-branches',
    'GET repository/branches/:': 'get-branch',
    'GET repository/tags': 'list-tags',
    'GET deployments': 'list-deployments',
    'POST deployments': 'create-deployment',
    'GET deployments/:': 'get-deployment',
    'PUT deployments/:': 'update-deployment',
    'GET environments': 'list-environments',
    'PUT environments/:': 'update-environment',
    'GET issues': 'list-issues',
    'POST issues': 'create-issue',
    'GET issues/:': 'get-issue',
    'PUT issues/:': 'update-issue',
    'GET issues/:/:': 'list-notes',
    'POST issues/:/:': 'create-note',
    'GET labels': 'list-labels',
    'POST labels': 'create-label',
    'GET labels/:': 'get-label'
};
const ROUTES_WITH_ARG = new Set([
    'get-commit',
    'commit-merge-requests',
    'get-branch',
    'get-deployment',
    'update-deployment',
    'update-environment',
    'get-issue',
    'update-issue',
    'list-notes',
    'create-note',
    'get-label'
]);
/** The fixed last part of the routes whose path ends after their variable. */
const TAILS = { 'commit-merge-requests': 'merge_requests', 'list-notes': 'notes', 'create-note': 'notes' };
const ok = (body, headers) => ({ status: 200, body, ...(headers && { headers }) });
const created = (body) => ({ status: 201, body });
function routes_answer(m, c) {
    const v = c.view;
    const r = new ParamReader(c.params);
    const page = (items, render) => {
        const paged = paginate(items, r, { base: v.base, path: c.path, query: c.query, id: m.project });
        return ok(paged.items.map(render), paged.headers);
    };
    const arg = m.arg ?? '';
    switch (m.route) {
        case 'get-project':
            return ok(projectJson(v));
        case 'get-commit':
            return ok(commitDetailJson(v, v.model.commitOf(arg)));
        case 'commit-merge-requests':
            return page(v.model.mergeRequestsOf(arg), (mr) => mergeRequestJson(v, mr));
        case 'compare':
            return routes_compare(v, r);
        case 'merge-base':
            return mergeBase(v, r);
        case 'list-branches': {
            const search = r.string('search')?.toLowerCase();
            return page(v.model.branches.filter((b) => search === undefined || b.name.toLowerCase().includes(search)), (b) => branchJson(v, b));
        }
        case 'get-branch':
            return ok(branchJson(v, v.model.branchNamed(arg)));
        case 'list-tags':
            return page(listTags(v, r), (t) => json_tagJson(v, t));
        case 'list-deployments':
            return page(routes_listDeployments(v, r), (d) => json_deploymentJson(v, d));
        case 'get-deployment':
            return ok(json_deploymentJson(v, v.model.deployment(idOf('deployment_id', arg))));
        case 'create-deployment':
            return created(json_deploymentJson(v, createDeployment(v, r, c.user)));
        case 'update-deployment': {
            const id = idOf('deployment_id', arg);
            const status = r.oneOf('status', SETTABLE_STATUSES, undefined, true);
            r.done();
            return ok(json_deploymentJson(v, v.model.updateDeployment(id, status)));
        }
        case 'list-environments':
            return page(routes_listEnvironments(v, r), (e) => json_environmentJson(e));
        case 'update-environment':
            return ok(json_environmentJson(updateEnvironment(v, r, idOf('environment_id', arg))));
        default:
            return issueRoutes(m, c, r, page);
    }
}
function issueRoutes(m, c, r, page) {
    const v = c.view;
    const arg = m.arg ?? '';
    switch (m.route) {
        case 'list-issues':
            return page(routes_listIssues(v, r), (i) => json_issueJson(v, i));
        case 'get-issue':
            return ok(json_issueJson(v, v.model.issue(idOf('issue_iid', arg))));
        case 'create-issue':
            return created(json_issueJson(v, createIssue(v, r, c.user)));
        case 'update-issue': {
            const iid = idOf('issue_iid', arg);
            return ok(json_issueJson(v, v.model.updateIssue(iid, routes_issueChange(r, c.user))));
        }
        case 'list-notes': {
            const issue = v.model.issue(idOf('issue_iid', arg));
            return page(sortNotes(issue, r), (n) => noteJson(v, issue, n));
        }
        case 'create-note': {
            const issue = v.model.issue(idOf('issue_iid', arg));
            const body = r.string('body', true) ?? '';
            r.done();
            if (body.trim() === '')
                throw GitLabError.validation({ note: ["can't be blank"] });
            return created(noteJson(v, issue, v.model.addNote(issue.iid, body, c.user)));
        }
        case 'list-labels':
            return page([...v.model.labels].sort((a, b) => a.name.localeCompare(b.name)), (l) => json_labelJson(v, l));
        case 'get-label': {
            const label = v.model.label(arg);
            if (label === undefined)
                throw GitLabError.notFound('Label');
            return ok(json_labelJson(v, label));
        }
        case 'create-label':
            return created(json_labelJson(v, createLabel(v, r)));
        default:
            throw GitLabError.params([`no route ${m.route}`]);
    }
}
/** A numeric path variable, as GitLab's framework declares it (Integer): anything else is "<name> is invalid". */
function idOf(name, value) {
    const id = new ParamReader({ [name]: value }).integer(name);
    if (id === undefined)
        throw GitLabError.params([`${name} is invalid`]);
    return id;
}
function routes_compare(v, r) {
    const from = r.string('from', true);
    const to = r.string('to', true);
    r.boolean('straight'); // a diff's base only: the commits are the same either way, and there are no diffs here
    r.done();
    return ok(compareJson(v, v.model.compare(from ?? '', to ?? ''), from ?? '', to ?? ''));
}
function mergeBase(v, r) {
    const refs = r.list('refs', true);
    r.done();
    return ok(json_commitJson(v, v.model.mergeBase(refs ?? [])));
}
/** GitLab's tag listing: ordered by `updated` (the tagged commit's date; ties, the last made first), `name` or `version`; desc by default. */
function listTags(v, r) {
    const orderBy = r.oneOf('order_by', ['name', 'updated', 'version'], 'updated');
    const sort = r.oneOf('sort', ['asc', 'desc'], 'desc');
    const search = r.string('search');
    r.done();
    const made = v.model.tags; // the last made first
    const dateOf = (sha) => Date.parse(v.model.graph.getCommit(sha)?.date ?? '');
    const key = (a, b) => {
        if (orderBy === 'name')
            return a.name.localeCompare(b.name);
        if (orderBy === 'version')
            return compareVersions(a.name, b.name);
        return dateOf(a.sha) - dateOf(b.sha) || made.indexOf(b) - made.indexOf(a);
    };
    const sorted = made.filter((t) => matchesSearch(t.name, search)).sort(key);
    return sort === 'desc' ? sorted.reverse() : sorted;
}
/** GitLab's tag search: ^term a prefix, term$ a suffix, else a part of the name. */
function matchesSearch(name, search) {
    if (search === undefined || search === '')
        return true;
    if (search.startsWith('^'))
        return name.startsWith(search.slice(1));
    if (search.endsWith('$'))
        return name.endsWith(search.slice(0, -1));
    return name.includes(search);
}
function compareVersions(a, b) {
    const parts = (s) => (s.match(/\d+/g) ?? []).map(Number);
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++)
        if ((x[i] ?? -1) !== (y[i] ?? -1))
            return (x[i] ?? -1) - (y[i] ?? -1);
    return a.localeCompare(b);
}
const DEPLOYMENT_ORDERS = ['id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'];
/** GitLab's deployment listing: by environment name and status; ordered by id ascending unless asked otherwise. */
function routes_listDeployments(v, r) {
    const orderBy = r.oneOf('order_by', DEPLOYMENT_ORDERS, 'id') ?? 'id';
    const sort = r.oneOf('sort', ['asc', 'desc'], 'asc');
    const environment = r.string('environment');
    const status = r.oneOf('status', DEPLOYMENT_STATUSES);
    const [updatedAfter, updatedBefore, finishedAfter, finishedBefore] = ['updated_after', 'updated_before', 'finished_after', 'finished_before'].map((n) => r.date(n));
    r.done();
    const envId = environment === undefined ? undefined : (v.model.environment(environment)?.id ?? -1);
    const time = (s) => (s === null ? NaN : Date.parse(s));
    const list = v.model.deployments.filter((d) => (envId === undefined || d.environment_id === envId) &&
        (status === undefined || d.status === status) &&
        !(time(d.updated_at) <= (updatedAfter ?? -Infinity)) &&
        !(time(d.updated_at) >= (updatedBefore ?? Infinity)) &&
        (finishedAfter === undefined || time(d.finished_at) >= finishedAfter) &&
        (finishedBefore === undefined || time(d.finished_at) < finishedBefore));
    const value = (d) => (orderBy === 'id' || orderBy === 'iid' ? d[orderBy] : (d[orderBy] ?? ''));
    list.sort((a, b) => {
        const [x, y] = [value(a), value(b)];
        return (x < y ? -1 : x > y ? 1 : 0) || a.id - b.id;
    });
    return sort === 'desc' ? list.reverse() : list;
}
function createDeployment(v, r, user) {
    const environment = r.string('environment', true);
    const sha = r.string('sha', true);
    const ref = r.string('ref', true);
    const tag = r.boolean('tag', true);
    const status = r.oneOf('status', SETTABLE_STATUSES, undefined, true);
    r.done();
    return v.model.createDeployment({ environment: environment ?? '', sha: sha ?? '', ref: ref ?? '', tag: tag ?? false, status: status }, user);
}
function routes_listEnvironments(v, r) {
    const name = r.string('name');
    const search = r.string('search');
    const states = r.oneOf('states', ['available', 'stopping', 'stopped']);
    r.done();
    return v.model.environments.filter((e) => (name === undefined || e.name === name) && (search === undefined || e.name.includes(search)) && (states === undefined || e.state === states));
}
/** What PUT /environments/:id changes: its external URL (an http(s) address, or empty to clear it) and its tier. */
function updateEnvironment(v, r, id) {
    const externalUrl = r.string('external_url');
    const tier = r.oneOf('tier', ENVIRONMENT_TIERS);
    r.string('description');
    r.done();
    return v.model.updateEnvironment(id, {
        ...(externalUrl !== undefined && { externalUrl: externalUrl === '' ? null : externalUrl }),
        ...(tier !== undefined && { tier })
    });
}
/** GitLab's issue listing: every state unless asked, all the labels given, newest created first unless asked otherwise. */
function routes_listIssues(v, r) {
    const state = r.oneOf('state', ['opened', 'closed', 'all'], 'all');
    const labels = r.list('labels') ?? [];
    const orderBy = r.oneOf('order_by', ['created_at', 'updated_at', 'title'], 'created_at') ?? 'created_at';
    const sort = r.oneOf('sort', ['asc', 'desc'], 'desc');
    r.done();
    const list = v.model.issues
        .filter((i) => state === 'all' || i.state === state)
        .filter((i) => labels.every((l) => i.labels.includes(l)))
        .sort((a, b) => a[orderBy].localeCompare(b[orderBy]) || a.iid - b.iid);
    return sort === 'desc' ? list.reverse() : list;
}
function createIssue(v, r, user) {
    const title = r.string('title', true);
    const description = r.string('description');
    const labels = r.list('labels');
    r.done();
    if ((title ?? '').trim() === '')
        throw GitLabError.validation({ title: ["can't be blank"] });
    return v.model.addIssue({ title: title ?? '', ...(description !== undefined && { description }), ...(labels !== undefined && { labels }), author: user });
}
const ISSUE_EDITS = ['title', 'description', 'state_event', 'labels', 'add_labels', 'remove_labels'];
function routes_issueChange(r, user) {
    if (ISSUE_EDITS.every((name) => r.params[name] === undefined)) {
        throw GitLabError.params([`${ISSUE_EDITS.join(', ')} are missing, at least one parameter must be provided`]);
    }
    const change = { user };
    const title = r.string('title');
    const description = r.string('description');
    const stateEvent = r.oneOf('state_event', ['close', 'reopen']);
    const [labels, add, remove] = [r.list('labels'), r.list('add_labels'), r.list('remove_labels')];
    r.done();
    if (title !== undefined)
        change.title = title;
    if (description !== undefined)
        change.description = description;
    if (stateEvent !== undefined)
        change.stateEvent = stateEvent;
    if (labels !== undefined)
        change.labels = labels;
    if (add !== undefined)
        change.addLabels = add;
    if (remove !== undefined)
        change.removeLabels = remove;
    return change;
}
/** An issue's notes, newest first unless asked otherwise (GitLab's default). */
function sortNotes(issue, r) {
    const orderBy = r.oneOf('order_by', ['created_at', 'updated_at'], 'created_at') ?? 'created_at';
    const sort = r.oneOf('sort', ['asc', 'desc'], 'desc');
    r.done();
    const list = [...issue.notes].sort((a, b) => a[orderBy].localeCompare(b[orderBy]) || a.id - b.id);
    return sort === 'desc' ? list.reverse() : list;
}
function createLabel(v, r) {
    const name = r.string('name', true);
    const color = r.string('color', true);
    const description = r.string('description');
    r.done();
    if ((name ?? '').trim() === '')
        throw GitLabError.validation({ title: ["can't be blank"] });
    if (!/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(color ?? ''))
        throw GitLabError.validation({ color: ['must be a valid color code'] });
    return v.model.addLabel((name ?? '').trim(), color, description ?? null);
}

;// CONCATENATED MODULE: ./src/emulator/gitlab/server.ts
// A stand-in for the GitLab REST API v4 calls a deploy makes of its code's host (the project, commits, compare,
// merge base, branches, tags, deployments and environments, the merge requests of a commit) and the status report's
// drift issues (issues, notes, labels), answered as GitLab documents them. A real HTTP/1.1 server (node:http) over the
// model of model.ts, or the same handling in-process (createGitLabStandIn) for the simulation. It checks tokens and
// their scopes, records every call, answers faults on a route (a status, a hang, a dropped connection; before or after
// carrying the call out), and has two modes: refusing (every call answered e.g. 503, or 429 with GitLab's rate-limit
// headers) and slow (every answer late). Self-contained: it imports nothing of the action's.








/** The stand-in's own token (a personal access token's form), with the api scope. */
const DEFAULT_GITLAB_TOKEN = 'glpat-StandInToken12345678';
const DEFAULT_GITLAB_PROJECT = 'acme/platform/site';
const DEFAULT_GITLAB_PROJECT_ID = 42;
/** GitLab.com's authenticated API limit, per minute. */
const DEFAULT_RATE_LIMIT = 2000;
const server_BODY_LIMIT = 1024 * 1024;
function standOf(options) {
    const now = options.now ?? Date.now;
    const path = options.project ?? DEFAULT_GITLAB_PROJECT;
    const model = new GitLabModel({ id: options.projectId ?? DEFAULT_GITLAB_PROJECT_ID, path, defaultBranch: options.defaultBranch ?? 'main' }, now);
    return {
        now,
        path,
        model,
        tokens: options.tokens ?? { [DEFAULT_GITLAB_TOKEN]: { scopes: ['api'] } },
        limit: options.rateLimit ?? DEFAULT_RATE_LIMIT,
        sleep: options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms))),
        calls: [],
        faults: new Map(),
        view: { base: '', model },
        refusing: undefined,
        slowMs: 0,
        requests: 0,
        window: { start: 0, count: 0 }
    };
}
function createGitLabStandIn(options = {}) {
    const stand = standOf(options);
    return {
        model: stand.model,
        calls: stand.calls,
        fail(route, fault) {
            const queue = stand.faults.get(route) ?? [];
            queue.push({ ...fault, skipLeft: fault.skip ?? 0, timesLeft: fault.times ?? 1 });
            stand.faults.set(route, queue);
        },
        refuse(mode) {
            stand.refusing = mode;
        },
        slow(ms) {
            stand.slowMs = ms;
        },
        handle: (req, res) => gitlab_server_handle(stand, req, res),
        setBase(base) {
            stand.view.base = base;
        }
    };
}
/** One request: recorded, late in the slow mode, then answered, dropped or left hanging as a fault says. */
async function gitlab_server_handle(stand, req, res) {
    const url = new URL(req.url ?? '/', stand.view.base === '' ? 'http://gitlab.invalid' : stand.view.base);
    const raw = await gitlab_server_readBody(req);
    const call = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        body: raw.length > 0 ? bodyParams(raw, req.headers['content-type']) : undefined,
        raw: raw.toString('utf8'),
        token: server_tokenOf(req.headers, url.searchParams),
        route: 'unknown',
        status: 0
    };
    stand.calls.push(call);
    if (stand.slowMs > 0)
        await stand.sleep(stand.slowMs);
    const outcome = server_respond(stand, call, url, raw);
    if (outcome.kind === 'drop')
        return void req.socket.destroy();
    if (outcome.kind === 'hang') {
        if (!res.destroyed)
            await new Promise((done) => res.once('close', () => done()));
        return;
    }
    call.status = outcome.answer.status;
    server_send(res, outcome.answer, ++stand.requests, rateHeaders(stand));
}
/** The refusing mode's answer, else a fault's (before or after the call is carried out), else the call's own. */
function server_respond(stand, call, url, raw) {
    const matched = routes_match(call.method, url.pathname);
    if (matched !== undefined)
        call.route = matched.route;
    if (stand.refusing !== undefined)
        return { kind: 'answer', answer: refusal(stand.refusing, rateHeaders(stand, true)) };
    const fault = matched === undefined ? undefined : server_takeFault(stand.faults, matched.route);
    if (fault !== undefined && fault.afterApply !== true)
        return faultOutcome(fault);
    const done = { kind: 'answer', answer: guarded(() => carryOut(stand, call, matched, raw)) };
    return fault !== undefined ? faultOutcome(fault) : done;
}
/** The call checked as GitLab checks it (throttle, token, route, scope, project, role, body), then answered. */
function carryOut(stand, call, matched, raw) {
    const { path, window } = stand;
    if (counted(stand) > stand.limit) {
        return refusal({ status: 429, retryAfterSeconds: Math.ceil((window.start + 60_000 - stand.now()) / 1000) }, rateHeaders(stand, true));
    }
    if (raw.length > server_BODY_LIMIT)
        throw GitLabError.message(413, '413 Request Entity Too Large');
    const grant = stand.tokens[call.token ?? ''];
    if (grant === undefined)
        throw GitLabError.message(401, '401 Unauthorized');
    if (matched === undefined)
        throw new GitLabError(404, { error: '404 Not Found' });
    const write = WRITE_ROUTES.includes(matched.route);
    if (!grant.scopes.includes('api') && !(grant.scopes.includes('read_api') && !write))
        throw insufficientScope(write);
    if (!isProject(stand, matched.project) || !(grant.projects ?? [path]).some((p) => p.toLowerCase() === path.toLowerCase()))
        throw GitLabError.notFound('Project');
    if (DEVELOPER_ROUTES.includes(matched.route) && grant.role === 'reporter')
        throw GitLabError.message(403, '403 Forbidden');
    if (raw.length > 0 && call.body === undefined)
        throw GitLabError.message(400, '400 Bad request - the body is not a JSON object or a form');
    const params = { ...queryParams(call.query), ...call.body };
    return routes_answer(matched, { view: stand.view, params, user: grant.user ?? DEFAULT_USER, path: call.path, query: call.query });
}
/** Whether a path's project (its id, or its path) is the stand-in's. */
function isProject(stand, id) {
    return /^\d+$/.test(id) ? Number(id) === stand.model.project.id : id.toLowerCase() === stand.path.toLowerCase();
}
/** Calls in this minute, this one included. */
function counted({ now, window }) {
    const start = Math.floor(now() / 60_000) * 60_000;
    if (start !== window.start)
        Object.assign(window, { start, count: 0 });
    return ++window.count;
}
/** GitLab's RateLimit-* headers; `exhausted` when the answer is a throttle's. */
function rateHeaders({ now, window, limit }, exhausted = false) {
    const reset = (window.start === 0 ? Math.floor(now() / 60_000) * 60_000 : window.start) + 60_000;
    return {
        'ratelimit-name': 'throttle_authenticated_api',
        'ratelimit-limit': String(limit),
        'ratelimit-observed': String(window.count),
        'ratelimit-remaining': exhausted ? '0' : String(Math.max(0, limit - window.count)),
        'ratelimit-reset': String(Math.floor(reset / 1000)),
        'ratelimit-resettime': new Date(reset).toUTCString()
    };
}
async function startGitLabStandIn(options = {}) {
    const core = createGitLabStandIn(options);
    const served = await serve((req, res) => core.handle(req, res), options.port, options.host);
    const url = served.url;
    core.setBase(url);
    return {
        url,
        apiUrl: `${url}/api/v4`,
        model: core.model,
        calls: core.calls,
        fail: (route, fault) => core.fail(route, fault),
        refuse: (mode) => core.refuse(mode),
        slow: (ms) => core.slow(ms),
        close: () => served.close()
    };
}
/** PRIVATE-TOKEN, else Authorization: Bearer, else the private_token parameter, as GitLab takes a personal access token. */
function server_tokenOf(headers, query) {
    const header = headers['private-token'];
    if (typeof header === 'string' && header !== '')
        return header;
    const bearer = /^bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
    return bearer ?? query.get('private_token') ?? undefined;
}
function insufficientScope(write) {
    return new GitLabError(403, {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: write ? 'api' : 'api read_api'
    });
}
function statusMessage(status) {
    return { message: `${status} ${external_node_http_namespaceObject.STATUS_CODES[status] ?? 'Error'}` };
}
/** The refusing mode's answer, and a throttled call's: a 429 is GitLab's throttle ("Retry later", Retry-After, nothing remaining). */
function refusal(mode, rate) {
    if (mode.status !== 429)
        return { status: mode.status, body: mode.body ?? statusMessage(mode.status) };
    return { status: 429, body: mode.body ?? 'Retry later\n', headers: { ...rate, 'retry-after': String(mode.retryAfterSeconds ?? 60) } };
}
function server_takeFault(faults, route) {
    const queue = faults.get(route);
    const fault = queue?.[0];
    if (queue === undefined || fault === undefined)
        return undefined;
    if (fault.skipLeft > 0) {
        fault.skipLeft--;
        return undefined;
    }
    if (--fault.timesLeft <= 0)
        queue.shift();
    return fault;
}
function faultOutcome(fault) {
    if (fault.kind === 'hang' || fault.kind === 'drop')
        return { kind: fault.kind };
    const status = fault.status ?? 500;
    return { kind: 'answer', answer: { status, body: fault.body ?? statusMessage(status), ...(fault.headers && { headers: fault.headers }) } };
}
/** A GitLabError as GitLab writes it; anything else is a defect of the stand-in, thrown. */
function guarded(work) {
    try {
        return work();
    }
    catch (error) {
        if (!(error instanceof GitLabError))
            throw error;
        return { status: error.status, body: error.body };
    }
}
async function gitlab_server_readBody(req) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        size += chunk.length;
        if (size <= server_BODY_LIMIT + 1)
            chunks.push(chunk); // read to the end: leaving early would destroy the socket before the answer
    }
    return Buffer.concat(chunks);
}
/** JSON (or a throttle's text) with the headers GitLab sends on every API answer. */
function server_send(res, answer, n, rate) {
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status, {
        'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        'cache-control': 'max-age=0, private, must-revalidate',
        'x-request-id': `01STANDIN${String(n).padStart(17, '0')}`,
        'x-content-type-options': 'nosniff',
        ...rate,
        ...answer.headers
    });
    res.end(text);
}

;// CONCATENATED MODULE: ./src/emulator/cli.ts
// `npm run emulator -- [flags]` from a clone, or `brcloud emulator [flags]` from the package: runs the Bloomreach Cloud
// API emulator until SIGINT/SIGTERM; with --github, the GitHub API stand-in beside it, or with --gitlab, GitLab's.
// Its banner and --help name the commands of how it was started (./banner.ts).






/** Starts the GitHub API stand-in with its sample history; the SSO job the OIDC stand-in signs for is then of its repository, at its tip. */
async function startGitHub(cli, options) {
    const repository = options.sso?.githubJob?.repository ?? DEFAULTS.sso.githubJob.repository;
    const [owner = '', repo = ''] = repository.split('/');
    const standIn = await startGitHubStandIn({ owner, repo, port: cli.port, host: options.host ?? DEFAULTS.host });
    const history = seedSampleHistory(standIn.model);
    if (options.sso !== undefined)
        options.sso = { ...options.sso, githubJob: { ...options.sso.githubJob, sha: history.main.at(-1) ?? '' } };
    return { standIn, repository, history };
}
/** Starts the GitLab API stand-in with its sample history, for project acme/platform/site. */
async function startGitLab(cli, options) {
    const standIn = await startGitLabStandIn({ port: cli.port, host: options.host ?? DEFAULTS.host });
    return { standIn, history: model_seedSampleHistory(standIn.model) };
}
const inUse = (err) => err.code === 'EADDRINUSE';
/** A code host's stand-in started, or (its port taken) undefined after saying which flag chooses another, exit code 1. */
async function orSayInUse(host, flag, where, start) {
    try {
        return await start();
    }
    catch (err) {
        if (!inUse(err))
            throw err;
        console.error(`Another program already listens on ${where}. Choose another port for the ${host} API stand-in with --${flag}-port N, or --${flag}-port 0 to take any free one.`);
        process.exitCode = 1;
        return undefined;
    }
}
/** The command to run, or undefined once --help was printed or a bad flag was named with the help (exit code 2). */
function commandOf(face) {
    let parsed;
    try {
        parsed = parseCli(process.argv.slice(2));
    }
    catch (err) {
        console.error(`${err instanceof Error ? err.message : String(err)}\n\n${helpText(face)}`);
        process.exitCode = 2;
        return undefined;
    }
    if (parsed.help) {
        process.stdout.write(helpText(face));
        return undefined;
    }
    return parsed;
}
/** The stand-in --github or --gitlab asks for, or undefined when its port is taken (said, exit code 1). */
async function startCodeHosts(command) {
    const { options } = command;
    const host = options.host ?? DEFAULTS.host;
    const hosts = {};
    if (command.github !== undefined) {
        const cli = command.github;
        hosts.github = await orSayInUse('GitHub', 'github', `${host}:${cli.port}`, () => startGitHub(cli, options));
        if (hosts.github === undefined)
            return undefined;
    }
    if (command.gitlab !== undefined) {
        const cli = command.gitlab;
        hosts.gitLab = await orSayInUse('GitLab', 'gitlab', `${host}:${cli.port}`, () => startGitLab(cli, options));
        if (hosts.gitLab === undefined)
            return undefined;
    }
    return hosts;
}
/** The emulator started, or undefined when its port is taken (said, exit code 1; the code host's stand-in closed). */
async function startOrSayInUse(options, hosts) {
    try {
        return await startEmulator(options);
    }
    catch (err) {
        await Promise.all([hosts.github?.standIn.close(), hosts.gitLab?.standIn.close()]);
        if (!inUse(err))
            throw err;
        const where = `${options.host ?? DEFAULTS.host}:${options.port ?? 4080}`;
        console.error(`Another program already listens on ${where}. Choose another port with --port N, or --port 0 to take any free one (its address is printed).`);
        process.exitCode = 1;
        return undefined;
    }
}
/** The cloud API's part of the banner: where it listens, the account, the docs, the storage, the sites, the deploy time. */
function printCloud(emulator, options) {
    console.log(`Bloomreach Cloud API and search API emulator listening on ${emulator.url}`);
    console.log(`  username: ${emulator.username}`);
    console.log(`  password: ${emulator.password}`);
    console.log(`  docs:     ${emulator.url}/v3/docs`);
    console.log(`  storage:  ${options.keepUploads === false ? '(uploads are hashed, not kept)' : (options.storageDir ?? 'a temporary directory, removed on exit')}`);
    console.log(`  sites:    ${emulator.url}/sites/<environment>/<path> (the site webapp, webapps/site.war, of the distribution it runs; also under /site/; files at the distribution's root as an emulator convenience)`);
    if (options.deploySeconds !== undefined && options.deploySeconds > 0)
        console.log(`  a deploy takes ${options.deploySeconds} s`);
    if (options.deployLooks !== undefined && options.deployLooks > 0)
        console.log(`  a deploy is seen in progress by ${options.deployLooks} look(s) before it lands`);
    if (emulator.appConfigFiles.length > 0)
        console.log(`  app config files: ${emulator.appConfigFiles.map((f) => f.name).join(', ')}`);
}
/** The search API's part of the banner: its address, keys and a query to try. */
function printSearch(emulator) {
    console.log(`Search API: GET ${emulator.url}/api/v1/core/ (facets ${emulator.search.facetFormat}${emulator.search.delayMs > 0 ? `, ${emulator.search.delayMs} ms delay` : ''})`);
    console.log(`  search-base-url:   ${emulator.url}`);
    console.log(`  search-account-id: ${emulator.search.accountId}`);
    console.log(`  search-auth-key:   ${emulator.search.authKey}`);
    console.log(`  search-domain-key: ${emulator.search.domainKey}`);
    console.log(`  try search-query: shirt (keyword) or shirts (search-type: category)`);
}
/** The banner: what runs where, and what to run against it (./banner.ts). */
function printBanner(emulator, options, { github, gitLab }, face) {
    printCloud(emulator, options);
    const side = github && {
        url: github.standIn.url,
        repository: github.repository,
        tip: github.history.main.at(-1) ?? '',
        older: github.history.main.at(-2) ?? '',
        token: DEFAULT_GITHUB_TOKEN
    };
    for (const line of deployLines(emulator, side, face))
        console.log(line);
    printSearch(emulator);
    if (emulator.sso !== undefined)
        for (const line of ssoLines(emulator.sso, face))
            console.log(line);
    if (github !== undefined && side !== undefined)
        for (const line of gitHubLines(side, github.history, face))
            console.log(line);
    if (gitLab !== undefined) {
        const gitLabSide = { url: gitLab.standIn.url, project: DEFAULT_GITLAB_PROJECT, token: DEFAULT_GITLAB_TOKEN };
        for (const line of gitLabLines(gitLabSide, gitLab.history, face))
            console.log(line);
    }
    console.log(`Press Ctrl+C to stop.`);
}
/** On SIGINT or SIGTERM (the first one): everything closed, the ready file removed, exit 0. */
function stopOnSignal(emulator, { github, gitLab }, readyFile) {
    let stopping = false;
    const stop = (signal) => {
        if (stopping)
            return;
        stopping = true;
        console.log(`${signal}: stopping`);
        void (async () => {
            await Promise.all([emulator.close(), github?.standIn.close(), gitLab?.standIn.close()]);
            if (readyFile !== undefined)
                await (0,promises_namespaceObject.rm)(readyFile, { force: true });
            process.exit(0);
        })();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
}
async function main() {
    const face = faceOf(process.env);
    const command = commandOf(face);
    if (command === undefined)
        return;
    const { options, readyFile, quiet } = command;
    if (!quiet)
        options.log = (line) => console.log(`${new Date().toISOString()} ${line}`);
    if (readyFile !== undefined)
        await (0,promises_namespaceObject.rm)(readyFile, { force: true });
    const hosts = await startCodeHosts(command);
    if (hosts === undefined)
        return;
    const emulator = await startOrSayInUse(options, hosts);
    if (emulator === undefined)
        return;
    printBanner(emulator, options, hosts, face);
    if (readyFile !== undefined)
        await (0,promises_namespaceObject.writeFile)(readyFile, `${emulator.url}\n`);
    stopOnSignal(emulator, hosts, readyFile);
}
void main().catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
});

