export const id = 113;
export const ids = [113];
export const modules = {

/***/ 12113:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkSearch: () => (/* binding */ checkSearch)
});

// EXTERNAL MODULE: ./src/port.ts
var port = __webpack_require__(58676);
// EXTERNAL MODULE: ./src/report.ts
var report = __webpack_require__(70665);
// EXTERNAL MODULE: ./src/search/service.ts
var service = __webpack_require__(8363);
// EXTERNAL MODULE: ./src/search/request.ts
var request = __webpack_require__(24065);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(83916);
// EXTERNAL MODULE: ./src/format.ts
var format = __webpack_require__(16264);
// EXTERNAL MODULE: ./src/http/errors.ts
var http_errors = __webpack_require__(58549);
// EXTERNAL MODULE: ./src/http/retry.ts
var retry = __webpack_require__(28902);
// EXTERNAL MODULE: ./src/http/transport.ts + 1 modules
var transport = __webpack_require__(45848);
// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __webpack_require__(27194);
;// CONCATENATED MODULE: ./src/search/cookies.ts
// A small cookie jar for one run: the search service sets a cookie that a backend must present on later
// calls. One host per run, so Domain and Path are not consulted; Max-Age/Expires in the past delete.
class CookieJar {
    now;
    cookies = new Map();
    constructor(now = Date.now) {
        this.now = now;
    }
    /** Takes the Set-Cookie header(s) of an answer. */
    store(setCookie) {
        if (setCookie === undefined)
            return;
        for (const line of Array.isArray(setCookie) ? setCookie : [setCookie])
            this.storeOne(line);
    }
    storeOne(line) {
        const [pair = '', ...attributes] = line.split(';');
        const eq = pair.indexOf('=');
        if (eq <= 0)
            return;
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        if (name === '' || /[\s;,\p{Cc}]/u.test(name) || /[;\p{Cc}]/u.test(value))
            return;
        let expired = false;
        for (const attribute of attributes) {
            const [key = '', ...rest] = attribute.split('=');
            const v = rest.join('=').trim();
            if (/^max-age$/i.test(key.trim()) && /^-?\d+$/.test(v))
                expired = Number(v) <= 0;
            else if (/^expires$/i.test(key.trim()) && !attributes.some((a) => /^\s*max-age\s*=/i.test(a))) {
                const at = Date.parse(v);
                if (!Number.isNaN(at))
                    expired = at <= this.now();
            }
        }
        if (expired)
            this.cookies.delete(name);
        else
            this.cookies.set(name, value);
    }
    /** The Cookie header to present, or undefined when the jar is empty. */
    header() {
        if (this.cookies.size === 0)
            return undefined;
        return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    get size() {
        return this.cookies.size;
    }
}

;// CONCATENATED MODULE: ./src/search/response.ts
// Reads a search answer defensively: numFound/start/docs inside `response` (or at the top level), facets in
// the V3 format (`facet_counts.facets[]`) or the legacy one (`facet_fields`/`facet_ranges`/`facet_queries`,
// inside `facet_counts` or at the top level), and a keyword redirect. Unknown keys are ignored.
/** The answer is not a search result (not JSON, or no numFound). */
class SearchResponseError extends Error {
    name = 'SearchResponseError';
}
const MAX_TITLES = 5;
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function count(value) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0)
        return value;
    if (typeof value === 'string' && /^\d+$/.test(value))
        return Number(value);
    return undefined;
}
function response_text(value) {
    if (typeof value === 'string')
        return value;
    if (Array.isArray(value) && typeof value[0] === 'string')
        return value[0];
    return undefined;
}
function facets(body) {
    const counts = isObject(body.facet_counts) ? body.facet_counts : undefined;
    if (counts && Array.isArray(counts.facets)) {
        const names = counts.facets.map((f) => (isObject(f) ? response_text(f.name) : undefined)).filter((n) => n !== undefined);
        return { facetFormat: 'v3', facetNames: [...new Set(names)] };
    }
    const containers = [counts?.facet_fields, counts?.facet_ranges, counts?.facet_queries, body.facet_fields, body.facet_ranges, body.facet_queries];
    const legacy = containers.filter(isObject);
    if (legacy.length > 0)
        return { facetFormat: 'legacy', facetNames: [...new Set(legacy.flatMap((c) => Object.keys(c)))] };
    return { facetFormat: 'none', facetNames: [] };
}
function redirect(value) {
    if (!isObject(value))
        return undefined;
    const out = {};
    const original = response_text(value['original query']);
    const query = response_text(value['redirected query']);
    const url = response_text(value['redirected url']);
    if (original !== undefined)
        out.originalQuery = original;
    if (query !== undefined)
        out.redirectedQuery = query;
    if (url !== undefined)
        out.redirectedUrl = url;
    return Object.keys(out).length > 0 ? out : undefined;
}
function parseSearchResponse(body) {
    let parsed;
    try {
        parsed = JSON.parse(body);
    }
    catch {
        throw new SearchResponseError('the answer is not JSON');
    }
    if (!isObject(parsed))
        throw new SearchResponseError('the answer is not a JSON object');
    const inner = isObject(parsed.response) ? parsed.response : parsed;
    const numFound = count(inner.numFound) ?? count(parsed.numFound);
    if (numFound === undefined)
        throw new SearchResponseError('the answer has no numFound (it does not look like a search result)');
    const rawDocs = Array.isArray(inner.docs) ? inner.docs : Array.isArray(parsed.docs) ? parsed.docs : [];
    const docs = rawDocs.filter(isObject);
    const titles = docs
        .map((d) => response_text(d.title))
        .filter((t) => t !== undefined && t !== '')
        .slice(0, MAX_TITLES);
    const result = {
        numFound,
        start: count(inner.start) ?? count(parsed.start) ?? 0,
        docs,
        titles,
        ...facets(parsed)
    };
    const kr = redirect(parsed.keywordRedirect);
    if (kr)
        result.keywordRedirect = kr;
    return result;
}

;// CONCATENATED MODULE: ./src/search/client.ts









const DEFAULT_USER_AGENT = 'brcloud-deploy-search-check';
/** Backoff of both the transient retries and the wait window: 1 s doubling, capped at 10 s, with full jitter. */
const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 10_000;
/** The transient retries of one search call give up once waiting would take longer (a long Retry-After). */
const CALL_MAX_TOTAL_MS = 60_000;
/** One failed attempt. Its message is safe to print (no address, no auth key). */
class SearchFailure extends Error {
    kind;
    retryable;
    requestId;
    extra;
    name = 'SearchFailure';
    constructor(message, kind, 
    /** Transient (429, 5xx, timeout, connection failure), or too few results: worth another attempt. */
    retryable, requestId, extra = {}) {
        super(message);
        this.kind = kind;
        this.retryable = retryable;
        this.requestId = requestId;
        this.extra = extra;
    }
}
function bodyStatusCode(text) {
    try {
        const body = JSON.parse(text);
        return typeof body.status_code === 'number' ? body.status_code : undefined;
    }
    catch {
        return undefined;
    }
}
const HINTS = {
    403: ' Check search-account-id and search-auth-key.',
    414: ' The request is too long for the service: shorten search-page-url or search-query.',
    429: ' The service is rate limiting this account.'
};
/**
 * Where a 3xx answer points, for a message: without its query string and fragment (a redirect can carry
 * the auth key back) or user info. The caller passes the message through redact() for a key in the path.
 */
function redirectTarget(res, endpoint) {
    const value = res.headers.location;
    const raw = (Array.isArray(value) ? value[0] : value)?.trim();
    if (!raw)
        return 'a redirect without a Location header';
    try {
        const to = new URL(raw, endpoint);
        to.search = '';
        to.hash = '';
        to.username = '';
        to.password = '';
        return `a redirect to ${to.href} (query string not shown)`;
    }
    catch {
        return `a redirect to ${raw.split(/[?#]/)[0] ?? ''} (query string not shown)`;
    }
}
/** One search client per run: one `_br_uid_2` (the config's, the same on every run), one cookie jar, one connection pool. */
class SearchClient {
    config;
    brUid;
    cookies = new CookieJar();
    transport;
    userAgent;
    signal;
    constructor(config, options = {}) {
        this.config = config;
        // Registered here too, so every message this client builds is scrubbed by redact() whoever made the config.
        (0,secrets/* registerSecret */.cl)(config.authKey);
        this.brUid = config.brUid;
        this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
        this.signal = options.signal;
        this.transport = new transport/* HttpTransport */.G(config.baseUrl, {
            userAgent: this.userAgent,
            timeoutMs: config.timeoutMs,
            signal: options.signal,
            dispatcher: options.dispatcher
        });
    }
    /** The address without its query string: safe to print. */
    get endpoint() {
        return `${this.config.baseUrl}${request/* SEARCH_PATH */.pU}`;
    }
    /** Sends one search request. Throws a SearchFailure for any answer that is not a search result. */
    async search() {
        const requestId = (0,request/* newRequestId */.H4)();
        const headers = {};
        const cookie = this.cookies.header();
        if (cookie !== undefined)
            headers.cookie = cookie;
        const target = this.requestTarget(requestId, headers);
        const started = performance.now();
        const elapsed = () => Math.round(performance.now() - started);
        let res;
        try {
            res = await this.transport.send({
                method: 'GET',
                path: target,
                headers: { 'cache-control': 'no-cache', ...headers },
                timeoutMs: this.config.timeoutMs // the whole call, connection and answer included
            });
        }
        catch (error) {
            if (this.signal?.aborted)
                throw error; // the run's watchdog: not a failure of the check
            throw this.unanswered(error, requestId, elapsed());
        }
        const latencyMs = elapsed();
        this.cookies.store(res.headers['set-cookie']);
        if (res.status < 200 || res.status > 299)
            throw this.refused(res, requestId, latencyMs);
        return readAnswer(res, requestId, latencyMs);
    }
    /** The request's path and query (it holds the auth key): refused before it is sent when the service would answer 414. */
    requestTarget(requestId, headers) {
        const c = this.config;
        const built = (0,request/* buildSearchRequest */.CG)({
            accountId: c.accountId,
            authKey: c.authKey,
            domainKey: c.domainKey,
            brUid: this.brUid,
            pageUrl: c.pageUrl,
            type: c.type,
            q: c.query,
            fields: c.fields,
            rows: c.rows,
            start: 0,
            requestId
        }, { baseUrl: c.baseUrl, headers: { 'user-agent': this.userAgent, accept: 'application/json', ...headers } });
        if (built.bytes > request/* MAX_REQUEST_BYTES */.rO) {
            throw new SearchFailure(`The search request would be ${built.bytes} bytes, over the service's limit of ${request/* MAX_REQUEST_BYTES */.rO} bytes (HTTP 414); not sent.`, 'too-large', false, requestId);
        }
        return built.target;
    }
    /** A call that got no answer: over search-timeout-seconds, or a connection that failed (retried when transient). */
    unanswered(error, requestId, latencyMs) {
        const failure = (0,http_errors/* networkFailure */.rd)(error);
        if (failure?.kind === 'timeout') {
            return new SearchFailure(`The search service did not answer within the ${(0,format/* formatSeconds */.Xo)(this.config.timeoutMs)} limit (search-timeout-seconds).`, 'timeout', true, requestId, { latencyMs });
        }
        const what = error instanceof Error ? error.message : String(error);
        const code = (0,errors/* systemErrorCode */.vq)(error);
        return new SearchFailure((0,secrets/* redact */.E$)(`The search request to ${this.endpoint} failed: ${what}${code ? ` (${code})` : ''}.`), 'network', failure !== undefined, requestId, { latencyMs });
    }
    /** An answer other than 2xx: what the service said and what to check; 429 and 5xx are worth another attempt. */
    refused(res, requestId, latencyMs) {
        const se = (0,http_errors/* toServiceError */.N1)('Search', res);
        const statusCode = bodyStatusCode(res.text);
        const redirect = res.status >= 300 && res.status <= 399;
        const detail = redirect ? redirectTarget(res, this.endpoint) : (se.errorDetail ?? (res.text ? 'the answer was not a JSON error body' : 'no answer body'));
        const hint = redirect ? ' Check search-base-url / search-environment.' : (HINTS[res.status] ?? '');
        const code = statusCode !== undefined ? `, status_code ${statusCode}` : '';
        const extra = { status: res.status, latencyMs };
        if (statusCode !== undefined)
            extra.statusCode = statusCode;
        if (se.retryAfterMs !== undefined)
            extra.retryAfterMs = se.retryAfterMs;
        return new SearchFailure((0,secrets/* redact */.E$)(`The search service answered HTTP ${res.status}${code}: ${detail}.${hint}`), 'http', res.status === 429 || (res.status >= 500 && res.status <= 599), requestId, extra);
    }
    async close() {
        await this.transport.close();
    }
}
/** A 2xx answer read as a search result; one that is not (an HTML page, another JSON) is a failure not worth retrying. */
function readAnswer(res, requestId, latencyMs) {
    try {
        return { requestId, status: res.status, latencyMs, parsed: parseSearchResponse(res.text) };
    }
    catch (error) {
        if (!(error instanceof SearchResponseError))
            throw error;
        throw new SearchFailure(`The search service answered HTTP ${res.status}, but ${error.message}. Check search-base-url / search-environment.`, 'bad-answer', false, requestId, { status: res.status, latencyMs });
    }
}
function describeRedirect(r) {
    const to = r.redirectedUrl ?? r.redirectedQuery ?? '?';
    return `the service redirects this query to ${to} (keywordRedirect)`;
}
/**
 * Runs the search check and returns its result; never throws for a failed check (`passed: false`
 * with `failure`). Every search call goes through the action's retry policy: a transient failure (429
 * with its Retry-After, 5xx and 543, a timeout, a connection failure) is tried again, up to
 * config.maxAttempts attempts, with exponential backoff and jitter. Other answers (400, 403, 414, a 3xx...)
 * end the check at once. With config.waitMs above 0, too few results are looked for again (a freshly
 * deployed catalogue warming up) until enough are found or the wait window is over.
 */
async function runSearchCheck(config, deps = {}) {
    const client = new SearchClient(config, deps);
    const result = startingResult(config, client.endpoint);
    const timing = { sleep: deps.sleep ?? retry/* sleep */.yy, random: deps.random, now: deps.now };
    const searchOnce = retriedSearch(client, config, result, deps, timing);
    try {
        deps.log?.(`Search check: ${config.type} search for '${config.query}' at ${client.endpoint} (at least ${config.minResults} result(s))`);
        await untilEnoughResults(searchOnce, config, result, deps, timing);
        result.passed = true;
    }
    catch (error) {
        if (!(error instanceof SearchFailure))
            throw error;
        recordFailure(result, error, config);
    }
    finally {
        await client.close();
    }
    if (result.keywordRedirect && result.passed)
        result.warnings.push(`${describeRedirect(result.keywordRedirect)}.`);
    return result;
}
/** The result before any attempt: not passed, nothing found yet, the inputs' warnings. */
function startingResult(config, endpoint) {
    return {
        passed: false,
        query: config.query,
        originalQuery: config.originalQuery,
        type: config.type,
        endpoint,
        minResults: config.minResults,
        requestId: '',
        titles: [],
        facetFormat: 'none',
        facetNames: [],
        attempts: 0,
        warnings: [...config.warnings]
    };
}
/** The line before another attempt; `attempts` counts every request of the check. */
function retryLine(attempts, error, delayMs) {
    return `Search attempt ${attempts} failed: ${error instanceof Error ? error.message : String(error)} Trying again in ${(0,format/* formatSeconds */.Xo)(delayMs)}.`;
}
/** One search call, its transient failures retried under max-attempts; every attempt counted and its last answer kept. */
function retriedSearch(client, config, result, deps, timing) {
    const retrier = (0,retry/* createRetrier */.SB)({
        attempts: config.maxAttempts,
        baseDelayMs: BASE_DELAY_MS,
        maxDelayMs: MAX_DELAY_MS,
        maxTotalMs: CALL_MAX_TOTAL_MS,
        retryable: (error) => {
            if (!(error instanceof SearchFailure) || !error.retryable)
                return false;
            return error.extra.retryAfterMs !== undefined ? { afterMs: error.extra.retryAfterMs } : true;
        },
        ...timing
    }, (_level, message) => deps.log?.(message));
    return () => retrier.retrying('Search', async () => {
        result.attempts++;
        try {
            return await client.search();
        }
        catch (error) {
            if (error instanceof SearchFailure)
                recordFailedAttempt(result, error);
            throw error;
        }
    }, (error, _attempt, delayMs) => ({ level: 'info', message: retryLine(result.attempts, error, delayMs) }));
}
/** A failed attempt replaces the last one's request id, latency and status: the result tells of the last attempt. */
function recordFailedAttempt(result, error) {
    result.requestId = error.requestId;
    if (error.extra.latencyMs === undefined)
        delete result.latencyMs;
    else
        result.latencyMs = error.extra.latencyMs;
    if (error.extra.status === undefined)
        delete result.status;
    else
        result.status = error.extra.status;
}
/**
 * Searches until enough results are found: once, or with search-wait-seconds again while too few are (a freshly
 * deployed catalogue warming up). The wait window only adds attempts for too few results; waiting does not fix any
 * other failure.
 */
async function untilEnoughResults(searchOnce, config, result, deps, timing) {
    await (0,retry/* withRetry */.bD)(async () => {
        const answer = await searchOnce();
        recordAnswer(result, answer);
        if (answer.parsed.numFound < config.minResults)
            throw tooFewResults(answer, config);
        return answer;
    }, {
        attempts: config.waitMs > 0 ? Number.MAX_SAFE_INTEGER : 1,
        baseDelayMs: BASE_DELAY_MS,
        maxDelayMs: MAX_DELAY_MS,
        maxTotalMs: config.waitMs,
        retryable: (error) => error instanceof SearchFailure && error.kind === 'too-few-results',
        onRetry: (error, _attempt, delayMs) => deps.log?.(retryLine(result.attempts, error, delayMs)),
        ...timing
    });
}
/** A search result replaces what the last one found. */
function recordAnswer(result, answer) {
    result.requestId = answer.requestId;
    result.latencyMs = answer.latencyMs;
    result.status = answer.status;
    const parsed = answer.parsed;
    result.numFound = parsed.numFound;
    result.titles = parsed.titles;
    result.facetFormat = parsed.facetFormat;
    result.facetNames = parsed.facetNames;
    if (parsed.keywordRedirect)
        result.keywordRedirect = parsed.keywordRedirect;
    else
        delete result.keywordRedirect;
}
/** An answer with fewer results than search-min-results, naming the service's redirect of the query when it has one. */
function tooFewResults(answer, config) {
    const redirect = answer.parsed.keywordRedirect ? `; ${describeRedirect(answer.parsed.keywordRedirect)}` : '';
    return new SearchFailure(`The search for '${config.query}' found ${answer.parsed.numFound} product(s), fewer than search-min-results ${config.minResults}${redirect}.`, 'too-few-results', true, answer.requestId, { status: answer.status, latencyMs: answer.latencyMs, parsed: answer.parsed });
}
/** Why the check failed, with how many attempts it took against which limit, and advice for too few results. */
function recordFailure(result, error, config) {
    result.failureKind = error.kind;
    const tries = result.attempts <= 1
        ? ''
        : error.kind === 'too-few-results'
            ? ` (${result.attempts} attempts in the ${(0,format/* formatSeconds */.Xo)(config.waitMs)} search-wait-seconds window)`
            : ` (${result.attempts} attempts, max-attempts ${config.maxAttempts})`;
    result.failure = `${error.message}${tries}${error.kind === 'too-few-results' ? tooFewAdvice(config.waitMs) : ''}`;
}
/** What to do about too few results: the query or the bar may be wrong, or the catalogue not yet filled. */
function tooFewAdvice(waitMs) {
    const wait = waitMs > 0
        ? 'raise search-wait-seconds if the catalogue takes longer to fill after a deploy'
        : 'set search-wait-seconds (e.g. 120) if the catalogue fills only after a deploy';
    return ` Check that search-query matches products of search-domain-key's catalogue, lower search-min-results, or ${wait}.`;
}

;// CONCATENATED MODULE: ./src/search/index.ts







;// CONCATENATED MODULE: ./src/search-check.ts
// The search smoke check as a phase of the run: runs it and logs what it found. It returns the
// result, passed or not; main.ts fails the step on a failed check, report.ts derives the outputs.
// Loaded by main.ts only when search-query is set.



async function checkSearch(config, phase, signal) {
    return phase(`Search check: ${(0,report/* searchLabel */.Nk)(config)}`, async () => {
        const r = await runSearchCheck(config, { log: (line) => port/* info */.pq(line), signal });
        for (const w of r.warnings)
            port/* warning */.$e(w);
        const found = r.numFound === undefined ? 'no result count' : `${r.numFound} result(s) (at least ${r.minResults} wanted)`;
        port/* info */.pq(`${r.passed ? 'Passed' : 'Failed'}: ${found}, ${r.latencyMs ?? '?'} ms, ${r.attempts} attempt(s), facets ${r.facetFormat}.`);
        if (r.titles.length > 0)
            port/* info */.pq(`First results: ${r.titles.join(' | ')}`);
        return r;
    }, (r) => r.passed);
}


/***/ })

};
