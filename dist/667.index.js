export const id = 667;
export const ids = [667];
export const modules = {

/***/ 9129:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   q: () => (/* binding */ CloudApi)
/* harmony export */ });
/* unused harmony export DEFAULT_RETRY */
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3360);
/* harmony import */ var _http_errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8549);
/* harmony import */ var _http_retry_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8902);
// The one door to the cloud API: every call, JSON or the streamed upload, goes out here. It sets the
// bearer header, the time limits (the whole call for JSON; no bytes moving for the upload), turns any
// non-2xx answer into a ServiceError, and gives each operation its retries (`retrying`).



const DEFAULT_RETRY = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxTotalMs: 60_000 };
class CloudApi {
    transport;
    retrier;
    uploadIdleTimeoutMs;
    constructor(transport, options = {}) {
        this.transport = transport;
        this.retrier = (0,_http_retry_js__WEBPACK_IMPORTED_MODULE_2__/* .createRetrier */ .SB)({ ...(options.retry ?? DEFAULT_RETRY), retryable: _http_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .isTransient */ .dg }, (level, message) => level === 'warning' ? _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(message) : _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(message));
        this.uploadIdleTimeoutMs = options.uploadIdleTimeoutMs ?? 60_000;
    }
    get baseUrl() {
        return this.transport.baseUrl;
    }
    retrying(operation, fn, notice) {
        return this.retrier.retrying(operation, fn, notice);
    }
    /** One JSON call, one attempt: the parsed answer (undefined for an empty body), or a ServiceError. */
    async json(call) {
        const headers = { ...bearer(call.token) };
        if (call.json !== undefined)
            headers['content-type'] = 'application/json';
        const res = await this.transport.send({
            method: call.method,
            path: checkPath(call.path),
            headers,
            body: call.json === undefined ? undefined : JSON.stringify(call.json),
            ...(call.timeoutMs !== undefined && { timeoutMs: call.timeoutMs })
        });
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .debug */ .Yz(`${call.method} ${call.path} -> ${res.status}`);
        const ok = succeeded(call.operation, res);
        if (ok.text.trim() === '')
            return undefined;
        try {
            return JSON.parse(ok.text);
        }
        catch {
            throw new Error(`${call.operation}: the service answered HTTP ${ok.status} with a body that is not JSON`);
        }
    }
    /** One call, one attempt, its whole answer (headers included) when 2xx, or a ServiceError. */
    async answer(call) {
        const res = await this.transport.send({ method: call.method, path: checkPath(call.path), headers: bearer(call.token) });
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .debug */ .Yz(`${call.method} ${call.path} -> ${res.status}`);
        return succeeded(call.operation, res);
    }
    /** One streamed POST, one attempt: the answer of a 2xx, or a ServiceError. */
    async stream(call) {
        const res = await this.transport.send({
            method: 'POST',
            path: checkPath(call.path),
            headers: { ...bearer(call.token), 'content-type': call.contentType, 'content-length': String(call.contentLength) },
            body: call.body,
            idleTimeoutMs: this.uploadIdleTimeoutMs
        });
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .debug */ .Yz(`POST ${call.path} -> ${res.status}`);
        return succeeded(call.operation, res);
    }
}
/** The cloud API fails any path with a trailing slash: catch a programming error before it is sent. */
function checkPath(path) {
    if (/.\/(\?|$)/.test(path))
        throw new Error(`internal error: request path ${path} ends with a slash`);
    return path;
}
function bearer(token) {
    return token === undefined ? {} : { authorization: `Bearer ${token}` };
}
function succeeded(operation, res) {
    if (res.status < 200 || res.status > 299)
        throw (0,_http_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .toServiceError */ .N1)(operation, res);
    return res;
}


/***/ }),

/***/ 8954:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   a: () => (/* binding */ SSO_DOCS_URL)
/* harmony export */ });
/** The page every login message points at: which login a stack with single sign-on needs. */
const SSO_DOCS_URL = 'https://github.com/brcloud/brcloud-deploy/blob/main/docs/single-sign-on.md';


/***/ }),

/***/ 2554:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Oe: () => (/* binding */ RENEW_AFTER_MS),
/* harmony export */   X1: () => (/* binding */ PasswordLogin),
/* harmony export */   ln: () => (/* binding */ revokeRefreshToken)
/* harmony export */ });
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3916);
/* harmony import */ var _run_state_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(518);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7194);
/* harmony import */ var _method_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8954);
// The stack's own login: POST /v3/authn/access_token with the user's name and password, renewed with
// the refresh token, which is revoked at the end (never logout: that ends every token of the user, in
// every parallel job). A stack with single sign-on disables it: the refusal says so.




/** The platform's advice: renew 9 minutes after issue (tokens live 10). */
const RENEW_AFTER_MS = 9 * 60_000;
const SSO_HINT = `If this stack uses single sign-on, its password login is disabled: log in through your identity provider with token-url (see ${_method_js__WEBPACK_IMPORTED_MODULE_3__/* .SSO_DOCS_URL */ .a}).`;
class PasswordLogin {
    who;
    password;
    target;
    preflight = false;
    renewable = true;
    renewAfterMs = RENEW_AFTER_MS;
    refusedHint = 'Run again; if it persists, check that the user may deploy to this stack.';
    constructor(who, password, 
    /** For messages: the stack (or host) the user logs in to. */
    target) {
        this.who = who;
        this.password = password;
        this.target = target;
    }
    async obtain(api) {
        let answer;
        try {
            answer = await api.retrying('Login', () => api.json({ operation: 'Login', method: 'POST', path: '/v3/authn/access_token', json: { username: this.who, password: this.password } }));
        }
        catch (error) {
            throw this.refused(error);
        }
        const grant = toGrant(answer, 'Login');
        if (grant.refreshToken)
            (0,_run_state_js__WEBPACK_IMPORTED_MODULE_1__/* .noteRefreshToken */ .$P)(api.baseUrl, grant.refreshToken);
        return grant;
    }
    async refresh(api, refreshToken) {
        const answer = await api.retrying('Token refresh', () => api.json({
            operation: 'Token refresh',
            method: 'POST',
            path: '/v3/authn/refresh_token',
            json: { grant_type: 'refresh_token', refresh_token: refreshToken }
        }));
        return toGrant(answer, 'Token refresh');
    }
    async revoke(api, refreshToken) {
        if (refreshToken === undefined)
            return undefined;
        try {
            await revokeRefreshToken(api, refreshToken);
            return undefined;
        }
        catch (error) {
            return error instanceof Error ? error.message : String(error);
        }
    }
    /** A refusal says what to check: the credentials, the stack, and single sign-on (which disables this login). */
    refused(error) {
        if (!(error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7) || error.status < 401 || error.status >= 500 || error.status === 429)
            return error;
        const code = `HTTP ${error.status}${error.errorCode ? ` ${error.errorCode}` : ''}`;
        const check = error.status === 401
            ? 'Check that the username and password secrets belong to a user of this stack, that the password has not expired, and that the stack is the right one. '
            : '';
        return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7(`Login to ${this.target} as user '${this.who}' was refused (${code}). ${check}${SSO_HINT}`, error.status, error.errorCode, error.errorDetail);
    }
}
/** The tokens of an answer, masked first: nothing may print a token before the runner knows to hide it. */
function toGrant(answer, operation) {
    (0,_secrets_js__WEBPACK_IMPORTED_MODULE_2__/* .registerSecret */ .c)(answer?.access_token);
    (0,_secrets_js__WEBPACK_IMPORTED_MODULE_2__/* .registerSecret */ .c)(answer?.refresh_token);
    if (!answer || typeof answer.access_token !== 'string' || answer.access_token === '')
        throw new Error(`${operation}: the answer holds no access_token`);
    // The refresh answer carries no new refresh token: the session keeps the one from the login.
    const refreshToken = typeof answer.refresh_token === 'string' && answer.refresh_token !== '' ? answer.refresh_token : undefined;
    return { accessToken: answer.access_token, refreshToken };
}
/** The one revocation call: DELETE /v3/authn/refresh_token with the token in the body (never logout). The post step uses it too. */
async function revokeRefreshToken(api, refreshToken) {
    await api.json({
        operation: 'Revoking the refresh token',
        method: 'DELETE',
        path: '/v3/authn/refresh_token',
        json: { grant_type: 'refresh_token', refresh_token: refreshToken }
    });
}


/***/ }),

/***/ 3839:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   U: () => (/* binding */ proxyAwareDispatcher)
/* harmony export */ });
/* harmony import */ var undici__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6752);
/* harmony import */ var _proxy_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7856);
// The connections of every door of the action (the cloud API, the token endpoint): HTTP/1.1, through the
// environment's proxy, never for a loopback address. Its own module, so the simulation, which replaces
// the transport, still loads it.


/**
 * undici 6 (the one @actions/core already loads, so the bundle carries and loads one copy, not two)
 * marks EnvHttpProxyAgent experimental and says so on stderr, where a runner shows it as noise on
 * every step. Only that one warning is held back, only while the agent is made.
 */
function withoutExperimentalWarning(make) {
    const emitWarning = process.emitWarning;
    process.emitWarning = ((warning, ...rest) => {
        if (String(warning).includes('EnvHttpProxyAgent is experimental'))
            return;
        emitWarning.call(process, warning, ...rest);
    });
    try {
        return make();
    }
    finally {
        process.emitWarning = emitWarning;
    }
}
/** The connections to `baseUrl`: HTTP/1.1, HTTPS_PROXY / HTTP_PROXY / NO_PROXY honoured, loopback never proxied. */
function proxyAwareDispatcher(baseUrl) {
    const noProxy = (0,_proxy_js__WEBPACK_IMPORTED_MODULE_1__/* .noProxyWithLoopback */ .XO)(process.env, new URL(baseUrl).hostname);
    return withoutExperimentalWarning(() => new undici__WEBPACK_IMPORTED_MODULE_0__.EnvHttpProxyAgent({ allowH2: false, connect: { timeout: 30_000 }, noProxy }));
}


/***/ }),

/***/ 8902:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   SB: () => (/* binding */ createRetrier),
/* harmony export */   bD: () => (/* binding */ withRetry),
/* harmony export */   sP: () => (/* binding */ Poll),
/* harmony export */   yy: () => (/* binding */ sleep)
/* harmony export */ });
/* harmony import */ var node_async_hooks__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6698);
/* harmony import */ var node_async_hooks__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_async_hooks__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3916);
/* harmony import */ var _format_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6264);
// One retry helper: exponential backoff with full jitter, bounded attempts and total time; and on
// top of it `retrying`, which gives each user-visible operation its attempts.



/** Waits `ms`; with a signal, rejects with its reason as soon as it aborts, so no wait outlives a stopped run. */
function sleep(ms, signal) {
    if (signal === undefined)
        return new Promise((resolve) => setTimeout(resolve, ms));
    return new Promise((resolve, reject) => {
        if (signal.aborted)
            return reject(signal.reason);
        const stop = () => {
            clearTimeout(timer);
            reject(signal.reason);
        };
        const timer = setTimeout(() => {
            signal.removeEventListener('abort', stop);
            resolve();
        }, ms);
        signal.addEventListener('abort', stop, { once: true });
    });
}
/** The wait of `options`: an injected sleep (tests), else the real one, ended by the signal either way. */
function waiter(options) {
    const { signal } = options;
    const inject = options.sleep;
    if (inject === undefined)
        return (ms) => sleep(ms, signal);
    if (signal === undefined)
        return inject;
    return (ms) => untilAborted(inject(ms), signal);
}
/** `promise`, or the signal's reason as soon as it aborts (the listener removed either way). */
function untilAborted(promise, signal) {
    if (signal.aborted)
        return Promise.reject(signal.reason);
    let stop;
    const stopped = new Promise((_, reject) => {
        stop = () => reject(signal.reason);
        signal.addEventListener('abort', stop, { once: true });
    });
    return Promise.race([promise, stopped]).finally(() => signal.removeEventListener('abort', stop));
}
async function withRetry(fn, options) {
    const base = options.baseDelayMs ?? 500;
    const cap = options.maxDelayMs ?? 10_000;
    const wait = waiter(options);
    const random = options.random ?? Math.random;
    const now = options.now ?? Date.now;
    const started = now();
    for (let attempt = 1;; attempt++) {
        try {
            return await fn(attempt);
        }
        catch (error) {
            const verdict = attempt < options.attempts ? options.retryable(error) : false;
            if (verdict === false)
                throw error;
            const backoff = Math.round(random() * Math.min(cap, base * 2 ** (attempt - 1)));
            const delay = typeof verdict === 'object' ? Math.max(verdict.afterMs, backoff) : backoff;
            if (options.maxTotalMs !== undefined && now() - started + delay > options.maxTotalMs)
                throw error;
            options.onRetry?.(error, attempt, delay);
            await wait(delay);
        }
    }
}
/**
 * Which retrier's operation the current call runs inside. One storage for the whole process: each
 * AsyncLocalStorage instance stays live and adds work to every promise made afterwards (Node 20), so
 * one per retrier made a long-lived process (the simulation's thousands of runs) slower with each.
 */
const running = new node_async_hooks__WEBPACK_IMPORTED_MODULE_0__.AsyncLocalStorage();
function createRetrier(policy, log) {
    const retrier = {
        retrying(operation, fn, notice) {
            if (running.getStore() === retrier)
                return fn(1);
            const line = notice ??
                ((error, attempt, delay) => ({
                    level: 'info',
                    message: `${operation}: attempt ${attempt} failed (${(0,_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .describeError */ .Uc)(error)}); retrying in ${(0,_format_js__WEBPACK_IMPORTED_MODULE_2__/* .formatDelay */ .Zk)(delay)}`
                }));
            return running.run(retrier, () => withRetry(fn, {
                ...policy,
                onRetry: (error, attempt, delay) => {
                    const { level, message } = line(error, attempt, delay);
                    log(level, message);
                }
            }));
        }
    };
    return retrier;
}
/** The pace of looking again until something is done (a deploy applied, a site healthy), within a time limit. */
class Poll {
    options;
    now;
    wait;
    interval;
    started;
    constructor(options) {
        this.options = options;
        this.now = options.now ?? Date.now;
        this.wait = waiter(options);
        this.interval = options.intervalMs;
        this.started = this.now();
    }
    /** Milliseconds since the first look. */
    elapsed() {
        return this.now() - this.started;
    }
    /** Pauses before the next look; false (at once) when the time is up. */
    async next() {
        const left = this.started + this.options.timeoutMs - this.now();
        if (left <= 0)
            return false;
        await this.wait(Math.min(this.interval, left));
        this.interval = Math.min(this.options.maxIntervalMs, Math.round(this.interval * 1.5));
        return true;
    }
}


/***/ }),

/***/ 5848:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  G: () => (/* binding */ HttpTransport)
});

// UNUSED EXPORTS: CallTimeoutError

// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(7075);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
// EXTERNAL MODULE: ./src/http/dispatcher.ts
var dispatcher = __webpack_require__(3839);
;// CONCATENATED MODULE: ./src/http/upload-watch.ts
// The upload's time limit: "no bytes moving for request-timeout-seconds", and nothing else (a large
// upload on a slow link may take hours). Bytes move when the socket takes the next chunk of the body.
// After the last chunk, the network and the server may still hold a lot in their buffers (several MB
// on Linux), which a slow server reads long after our last write: the wait for the answer allows for
// draining that at the rate the upload ran, so the limit fires only when the server has stopped
// reading, not while it is still reading what we sent.

/** At most this much of the body can sit in socket buffers between us and the server's reads. */
const BUFFERED_BOUND = 16 * 1024 * 1024;
/** A server reading slower than this is taken as stopped, when the upload ran too briefly to measure its rate. */
const FLOOR_BYTES_PER_SECOND = 64 * 1024;
/** The rate is measured over the last this-many milliseconds of the upload (the first burst into empty buffers would flatter it). */
const RATE_WINDOW_MS = 2_000;
class UploadWatch {
    options;
    now;
    started;
    last;
    /** [time, bytes so far] of each chunk taken, kept for the rate window. */
    marks = [];
    bytes = 0;
    deadline;
    timer;
    fired = false;
    sent = false;
    constructor(options) {
        this.options = options;
        this.now = options.now ?? (() => performance.now());
        this.started = this.last = this.now();
        this.deadline = this.started + options.idleMs;
        this.timer = setInterval(() => this.check(), Math.max(50, Math.min(1_000, options.idleMs / 4)));
        this.timer.unref();
    }
    /** The body as the socket takes it: each chunk taken is progress. */
    track(body) {
        const pass = async function* () {
            for await (const chunk of body) {
                this.progress(chunk.length);
                yield chunk;
            }
            this.bodySent();
        };
        return external_node_stream_.Readable.from(pass.call(this), { objectMode: false });
    }
    progress(bytes) {
        this.bytes += bytes;
        this.last = this.now();
        this.marks.push([this.last, this.bytes]);
        while (this.marks.length > 2 && (this.marks[1]?.[0] ?? this.last) < this.last - RATE_WINDOW_MS)
            this.marks.shift();
        this.deadline = this.last + this.options.idleMs;
    }
    /** The whole body was handed to the socket: from now on the limit allows for the buffers to drain. */
    bodySent() {
        this.sent = true;
        this.deadline = this.now() + this.options.idleMs + this.drainAllowanceMs();
    }
    /** How long what may still sit in buffers takes to drain at the rate the upload ran (or the floor rate). */
    drainAllowanceMs() {
        const buffered = Math.min(this.bytes, BUFFERED_BOUND);
        const first = this.marks[0];
        const ranLongEnough = this.last - this.started >= 2 * RATE_WINDOW_MS && first !== undefined && this.last - first[0] >= RATE_WINDOW_MS / 2;
        const rate = ranLongEnough ? ((this.bytes - first[1]) / (this.last - first[0])) * 1000 : 0;
        return Math.round((buffered / Math.max(FLOOR_BYTES_PER_SECOND, rate)) * 1000);
    }
    stop() {
        if (this.timer !== undefined)
            clearInterval(this.timer);
        this.timer = undefined;
    }
    check() {
        if (this.fired || this.now() < this.deadline)
            return;
        this.fired = true;
        this.stop();
        const seconds = Math.round(this.options.idleMs / 1000);
        this.options.onIdle(this.sent
            ? `no answer after the whole upload was sent, in ${seconds} s plus the time its buffers take to drain`
            : `the upload made no progress for ${seconds} s`);
    }
}

;// CONCATENATED MODULE: ./src/http/transport.ts
// One HTTP/1.1 transport for every call of the action (undici; no fetch: uploads must stream).




const DEFAULT_TIMEOUT_MS = 60_000;
/** A call that ran out of time: code ETIMEDOUT, so the retry policy treats it as transient. */
class CallTimeoutError extends Error {
    name = 'CallTimeoutError';
    code = 'ETIMEDOUT';
}
class HttpTransport {
    baseUrl;
    options;
    dispatcher;
    ownsDispatcher;
    constructor(baseUrl, options) {
        this.baseUrl = baseUrl;
        this.options = options;
        // HTTP/1.1 only: the platform documents side effects of HTTP/2. HTTPS_PROXY, HTTP_PROXY and
        // NO_PROXY (or their lower-case forms) are honoured, as runners behind a corporate proxy need.
        this.ownsDispatcher = !options.dispatcher;
        // Loopback addresses (the emulator, a local stand-in) never go through a proxy (proxy.ts).
        this.dispatcher = options.dispatcher ?? (0,dispatcher/* proxyAwareDispatcher */.U)(baseUrl);
    }
    async send(req) {
        const total = req.idleTimeoutMs === undefined ? (req.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS) : undefined;
        const idle = req.idleTimeoutMs ?? total ?? DEFAULT_TIMEOUT_MS;
        const timer = total === undefined ? undefined : AbortSignal.timeout(total);
        // A streamed body is watched for progress instead of a limit on the whole call.
        const stalled = new AbortController();
        const watch = req.idleTimeoutMs !== undefined && req.body instanceof external_node_stream_.Readable
            ? new UploadWatch({ idleMs: req.idleTimeoutMs, onIdle: (message) => stalled.abort(new CallTimeoutError(message)) })
            : undefined;
        const signals = [timer, watch && stalled.signal, this.options.signal].filter((s) => s !== undefined);
        const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
        try {
            const res = await (0,undici.request)(this.baseUrl + req.path, {
                method: req.method,
                dispatcher: this.dispatcher,
                headers: { 'user-agent': this.options.userAgent, accept: 'application/json', ...req.headers },
                ...(req.body !== undefined && { body: watch && req.body instanceof external_node_stream_.Readable ? watch.track(req.body) : req.body }),
                // The watch owns the wait for the answer of an upload; 0 turns undici's own limit off.
                headersTimeout: watch ? 0 : idle,
                bodyTimeout: idle,
                ...(signal !== undefined && { signal })
            });
            watch?.stop();
            const text = await res.body.text();
            return { status: res.statusCode, headers: res.headers, text };
        }
        catch (error) {
            if (this.options.signal?.aborted)
                throw this.options.signal.reason;
            if (timer?.aborted)
                throw new CallTimeoutError(`no answer within ${Math.round((total ?? 0) / 1000)} s`);
            if (stalled.signal.aborted)
                throw stalled.signal.reason;
            throw error;
        }
        finally {
            watch?.stop();
        }
    }
    async close() {
        if (!this.ownsDispatcher)
            return;
        // After the watchdog fired, calls may still hang: destroy instead of waiting for them.
        if (this.options.signal?.aborted)
            await this.dispatcher.destroy();
        else
            await this.dispatcher.close();
    }
}


/***/ })

};
