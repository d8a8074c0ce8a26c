export const id = 962;
export const ids = [962];
export const modules = {

/***/ 9129:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   q: () => (/* binding */ CloudApi)
/* harmony export */ });
/* unused harmony export DEFAULT_RETRY */
/* harmony import */ var _port_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8676);
/* harmony import */ var _http_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8549);
/* harmony import */ var _http_phase_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3331);
/* harmony import */ var _http_retry_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8902);
// The one door to the cloud API: every call, JSON or the streamed upload, goes out here. It sets the
// bearer header, the time limits (the whole call for JSON; no bytes moving for the upload), turns any
// non-2xx answer into a ServiceError, and gives each operation its retries (`retrying`).




const DEFAULT_RETRY = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxTotalMs: 60_000 };
class CloudApi {
    transport;
    retrier;
    uploadIdleTimeoutMs;
    callTimeoutMs;
    constructor(transport, options = {}) {
        this.transport = transport;
        // No attempt begins after the phase a call is made in has ended (a look while following gives up with the deadline).
        this.retrier = (0,_http_retry_js__WEBPACK_IMPORTED_MODULE_2__/* .createRetrier */ .SB)({ ...(options.retry ?? DEFAULT_RETRY), retryable: _http_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .isTransient */ .dg, until: _http_phase_js__WEBPACK_IMPORTED_MODULE_1__/* .phaseEndsAt */ .Ti }, (level, message) => level === 'warning' ? _port_js__WEBPACK_IMPORTED_MODULE_3__/* .warning */ .$e(message) : _port_js__WEBPACK_IMPORTED_MODULE_3__/* .info */ .pq(message));
        this.uploadIdleTimeoutMs = options.uploadIdleTimeoutMs ?? 60_000;
        this.callTimeoutMs = options.callTimeoutMs;
    }
    /** A call's limit: its own, else the default, shortened to what is left of the phase it is made in. */
    limitOf(own) {
        return (0,_http_phase_js__WEBPACK_IMPORTED_MODULE_1__/* .phaseLimit */ .VB)(own ?? this.callTimeoutMs);
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
        const timeoutMs = this.limitOf(call.timeoutMs);
        const res = await this.transport.send({
            method: call.method,
            path: checkPath(call.path),
            headers,
            body: call.json === undefined ? undefined : JSON.stringify(call.json),
            ...(timeoutMs !== undefined && { timeoutMs }),
            ...(call.onDispatch !== undefined && { onDispatch: () => call.onDispatch?.('sent') })
        });
        _port_js__WEBPACK_IMPORTED_MODULE_3__/* .debug */ .Yz(`${call.method} ${call.path} -> ${res.status}`);
        if (res.status >= 400 && res.status < 500)
            call.onDispatch?.('refused');
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
        const timeoutMs = this.limitOf(call.timeoutMs);
        const res = await this.transport.send({
            method: call.method,
            path: checkPath(call.path),
            headers: bearer(call.token),
            ...(timeoutMs !== undefined && { timeoutMs })
        });
        _port_js__WEBPACK_IMPORTED_MODULE_3__/* .debug */ .Yz(`${call.method} ${call.path} -> ${res.status}`);
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
        _port_js__WEBPACK_IMPORTED_MODULE_3__/* .debug */ .Yz(`POST ${call.path} -> ${res.status}`);
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
        throw (0,_http_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .toServiceError */ .N1)(operation, res);
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
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7194);
/* harmony import */ var _method_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8954);
// The stack's own login: POST /v3/authn/access_token with the user's name and password, renewed with
// the refresh token, which is revoked at the end (never logout: that ends every token of the user, in
// every parallel job). A stack with single sign-on disables it: the refusal says so.



/** The platform's advice: renew 9 minutes after issue (tokens live 10). */
const RENEW_AFTER_MS = 9 * 60_000;
const SSO_HINT = `If this stack uses single sign-on, its password login is disabled: log in through your identity provider with token-url (see ${_method_js__WEBPACK_IMPORTED_MODULE_2__/* .SSO_DOCS_URL */ .a}).`;
class PasswordLogin {
    who;
    password;
    target;
    issuer = 'password';
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
        return toGrant(answer, 'Login');
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
    async revoke(api, refreshTokens, revoked) {
        let failed;
        for (const token of refreshTokens) {
            try {
                await revokeRefreshToken(api, token);
                revoked(token);
            }
            catch (error) {
                failed ??= error instanceof Error ? error.message : String(error);
            }
        }
        return failed;
    }
    /** A refusal says what to check: the credentials, the stack, and single sign-on (which disables this login). */
    refused(error) {
        if (!(error instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7) || error.status < 401 || error.status >= 500 || error.status === 429)
            return error;
        const code = `HTTP ${error.status}${error.errorCode ? ` ${error.errorCode}` : ''}`;
        const check = error.status === 401
            ? 'Check that the username and password secrets belong to a user of this stack, that the password has not expired, and that the stack is the right one. '
            : '';
        return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .LoginRefused */ .QU(`Login to ${this.target} as user '${this.who}' was refused (${code}). ${check}${SSO_HINT}`, error.status, error.errorCode, error.errorDetail);
    }
}
/** The tokens of an answer, masked first: nothing may print a token before the runner knows to hide it. */
function toGrant(answer, operation) {
    (0,_secrets_js__WEBPACK_IMPORTED_MODULE_1__/* .registerSecret */ .cl)(answer?.access_token);
    (0,_secrets_js__WEBPACK_IMPORTED_MODULE_1__/* .registerSecret */ .cl)(answer?.refresh_token);
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

/***/ 5326:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $: () => (/* binding */ statusDescription),
/* harmony export */   c: () => (/* binding */ STATUS_DESCRIPTION_LIMIT)
/* harmony export */ });
// A Deployment status's description as GitHub takes it: "The maximum description length is 140 characters" (its REST
// reference). Characters, not UTF-16 units: a cut by units could leave half of an emoji, which is no text at all.
const STATUS_DESCRIPTION_LIMIT = 140;
/** `text` cut to at most 140 characters, never inside one. */
function statusDescription(text) {
    const characters = [...text];
    return characters.length <= STATUS_DESCRIPTION_LIMIT ? text : characters.slice(0, STATUS_DESCRIPTION_LIMIT).join('');
}


/***/ }),

/***/ 3331:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Db: () => (/* binding */ withinPhase),
/* harmony export */   Ti: () => (/* binding */ phaseEndsAt),
/* harmony export */   VB: () => (/* binding */ phaseLimit)
/* harmony export */ });
/* unused harmony export MIN_CALL_MS */
/* harmony import */ var node_async_hooks__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6698);
/* harmony import */ var node_async_hooks__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_async_hooks__WEBPACK_IMPORTED_MODULE_0__);
// The end of the phase a call is made in: no call's time limit outruns it (a 12 s health budget must not take
// minutes because one call may take 60 s), and no retry begins after it. Read afresh, so a deadline that moves
// (see deploy/observe.ts Deadline) is followed. One storage for the process: each AsyncLocalStorage instance adds
// work to every promise made afterwards (see http/retry.ts).

const phaseEnd = new node_async_hooks__WEBPACK_IMPORTED_MODULE_0__.AsyncLocalStorage();
/** A call made at a phase's very end still gets this long: it is the look that says where things stand. */
const MIN_CALL_MS = 1_000;
/** Runs `work` as a phase that ends at `deadline` (Date.now() based): every call made in it is limited to what is left of it. */
function withinPhase(deadline, work) {
    return phaseEnd.run(deadline, work);
}
/** When the current phase ends (Date.now() based), or undefined outside one. */
function phaseEndsAt() {
    return phaseEnd.getStore()?.at;
}
function phaseLimit(limitMs) {
    const end = phaseEndsAt();
    if (end === undefined)
        return limitMs;
    const left = Math.max(MIN_CALL_MS, end - Date.now());
    return limitMs === undefined ? left : Math.min(limitMs, left);
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
            if (this.options.signal?.aborted)
                throw this.options.signal.reason;
            req.onDispatch?.();
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


/***/ }),

/***/ 1962:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runPost: () => (/* binding */ runPost)
});

// EXTERNAL MODULE: ./src/port.ts
var port = __webpack_require__(8676);
// EXTERNAL MODULE: ./src/cloud/api.ts
var cloud_api = __webpack_require__(9129);
// EXTERNAL MODULE: ./src/cloud/login/password.ts
var login_password = __webpack_require__(2554);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/http/time-limit.ts
var time_limit = __webpack_require__(3689);
// EXTERNAL MODULE: ./src/github/status-description.ts
var status_description = __webpack_require__(5326);
;// CONCATENATED MODULE: ./src/github/final-status.ts
// The post step's one GitHub call: a final status for a GitHub Deployment the main step started and
// could not finish. Best effort, like every GitHub call of the action.


/**
 * 'error', not 'inactive': the deploy's outcome is unknown, and inactive is what GitHub shows for a
 * deployment a later one replaced, which would hide that this one never finished. Throws on a failure.
 */
async function setErrorStatus(token, saved, description, limitMs) {
    const github = await __webpack_require__.e(/* import() */ 413).then(__webpack_require__.bind(__webpack_require__, 2413));
    const octokit = github.getOctokit(token);
    // A post step that hangs on GitHub would hold the job until its timeout.
    const limit = (0,time_limit/* timeLimit */.z)(limitMs);
    try {
        await octokit.rest.repos.createDeploymentStatus({
            owner: saved.owner,
            repo: saved.repo,
            deployment_id: saved.id,
            state: 'error',
            description: (0,status_description/* statusDescription */.$)(description),
            ...(saved.logUrl ? { log_url: saved.logUrl } : {}),
            auto_inactive: false,
            request: { signal: limit.signal }
        });
    }
    catch (error) {
        if (limit.expired())
            throw new Error(`GitHub did not answer within ${limitMs / 1000} s`, { cause: error });
        throw error;
    }
    finally {
        limit.clear();
    }
}

// EXTERNAL MODULE: ./src/http/transport.ts + 1 modules
var http_transport = __webpack_require__(5848);
// EXTERNAL MODULE: ./src/run-state.ts
var run_state = __webpack_require__(518);
// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __webpack_require__(7194);
;// CONCATENATED MODULE: ./src/post.ts
// The post step (action.yml runs.post, post-if: always()): it runs after the job's steps, also after a
// cancel or a kill, and finishes only what the main step could not: the refresh token it did not
// revoke, the GitHub Deployment (or GitLab deployment) it left in progress, and a word in the summary when it never reported.
// It never acts on the environment (no deploy, no rollback), and a failure here is a warning, never a
// failed step.








/** One attempt, a short limit: a cancelled job's post step must not hang. */
const REVOKE_LIMIT_MS = 5_000;
const GITHUB_LIMIT_MS = 10_000;
/** Tells the platform's logs which step called. */
const USER_AGENT = 'brcloud-deploy (GitHub Action, post step)';
async function runPost(read = run_state/* readState */.un) {
    try {
        const state = read();
        // A new process: the runner's mask is per job, but our own redact() knows nothing yet.
        for (const token of state.refreshTokens)
            (0,secrets/* registerSecret */.cl)(token);
        const done = [];
        const revoked = await revokeLeftToken(state);
        if (revoked)
            done.push(revoked);
        const finished = (await finishGitHubDeployment(state)) ?? (await finishGitLabDeployment(state));
        if (finished)
            done.push(finished);
        if (!state.reported)
            await writeSummary(done);
    }
    catch (error) {
        port/* warning */.$e(`The post step could not finish (${(0,secrets/* redact */.E$)((0,errors/* describeError */.Uc)(error))}).`);
    }
}
/** Revokes the refresh token the main step left valid; what was done, for the summary. */
async function revokeLeftToken(state) {
    const { apiUrl, refreshTokens } = state;
    if (state.revoked || refreshTokens.length === 0)
        return undefined;
    if (state.tokenIssuer === 'oauth')
        return revokeAtTokenEndpoint(refreshTokens);
    if (!apiUrl)
        return undefined;
    const transport = new http_transport/* HttpTransport */.G(apiUrl, { userAgent: USER_AGENT, timeoutMs: REVOKE_LIMIT_MS });
    const api = new cloud_api/* CloudApi */.q(transport, { retry: { attempts: 1 } });
    let revoked = 0;
    try {
        for (const token of refreshTokens) {
            try {
                await (0,login_password/* revokeRefreshToken */.ln)(api, token);
                revoked++;
            }
            catch (error) {
                if (error instanceof errors/* ServiceError */._7 && error.status === 401) {
                    port/* info */.pq('The platform refused a refresh token (HTTP 401): it is no longer valid, nothing to revoke.');
                    continue;
                }
                port/* warning */.$e(`Could not revoke this run's refresh token (${(0,secrets/* redact */.E$)((0,errors/* describeError */.Uc)(error))}); it expires by itself within 24 hours.`);
            }
        }
    }
    finally {
        await transport.close().catch(() => undefined);
    }
    if (revoked === 0)
        return undefined;
    port/* info */.pq(revoked === 1 ? "Revoked the main step's refresh token, which it had left valid." : `Revoked the ${revoked} refresh tokens the main step had left valid.`);
    return `revoked this run's refresh token${revoked > 1 ? 's' : ''}, which the main step had left valid`;
}
/**
 * A refresh token of the token endpoint (token-url): revoked there, as the main step would have, with the login
 * inputs read again (the post step sees the same inputs). One attempt, a short limit.
 */
async function revokeAtTokenEndpoint(refreshTokens) {
    const { readLogin } = await Promise.resolve(/* import() */).then(__webpack_require__.bind(__webpack_require__, 2052));
    const { OAuthLogin } = await Promise.all(/* import() */[__webpack_require__.e(235), __webpack_require__.e(857)]).then(__webpack_require__.bind(__webpack_require__, 4857));
    const secret = (name) => {
        const value = port/* getInput */.V4(name);
        (0,secrets/* registerSecret */.cl)(value);
        return value;
    };
    const login = readLogin((name) => (name === 'client-secret' ? secret(name) : port/* getInput */.V4(name)), secret('password'));
    if (login.kind !== 'oauth')
        return undefined;
    const method = new OAuthLogin(login, { attempts: 1 });
    method.reroute(REVOKE_LIMIT_MS);
    let revoked = 0;
    const failed = await method.revoke(undefined, refreshTokens, () => revoked++);
    if (failed !== undefined)
        port/* warning */.$e(`Could not revoke this run's refresh token (${(0,secrets/* redact */.E$)(failed)}); it expires by itself.`);
    return revoked > 0 ? "revoked this run's refresh token at the token endpoint, which the main step had left valid" : undefined;
}
/** Gives a GitHub Deployment the main step started, and never finalized, the status 'error'. */
async function finishGitHubDeployment(state) {
    const saved = state.githubDeployment;
    if (!saved || state.githubDeploymentFinal)
        return undefined;
    const token = port/* getInput */.V4('github-token');
    if (!token) {
        port/* warning */.$e(`GitHub Deployment ${saved.id} stays in progress: the post step has no github-token.`);
        return undefined;
    }
    // Known to redact() too: a GitHub error that echoes the token must not print it in the warning below.
    (0,secrets/* registerSecret */.cl)(token);
    const description = state.reported
        ? 'The deploy step ended without a final status; see the workflow run'
        : 'The main step was stopped before it reported; see the workflow run';
    try {
        await setErrorStatus(token, saved, description, GITHUB_LIMIT_MS);
        port/* info */.pq(`Set GitHub Deployment ${saved.id} to error: ${description}.`);
        return `set GitHub Deployment ${saved.id} to error (it was left in progress)`;
    }
    catch (error) {
        port/* warning */.$e(`Could not set GitHub Deployment ${saved.id} to error (${(0,secrets/* redact */.E$)((0,errors/* describeError */.Uc)(error))}).`);
        return undefined;
    }
}
/** A GitLab deployment's finished statuses, from the port's words (src/code-host/port.ts) to GitLab's. */
const FINISHED = { success: 'success', failure: 'failed', canceled: 'canceled' };
/**
 * Gives a GitLab deployment the main step started, and never finalized, a final status: the one the main step decided
 * and could not set (its call failed), else canceled (the run was stopped before it decided one).
 */
async function finishGitLabDeployment(state) {
    const saved = state.gitlabDeployment;
    if (!saved || state.githubDeploymentFinal)
        return undefined;
    const token = port/* getInput */.V4('gitlab-token');
    if (!token) {
        port/* warning */.$e(`GitLab deployment ${saved.id} stays running: the post step has no gitlab-token.`);
        return undefined;
    }
    (0,secrets/* registerSecret */.cl)(token);
    const wanted = state.finalWanted;
    const why = wanted === undefined ? 'the main step was stopped before it finished' : 'the status the main step decided and could not set';
    const { GitLabApi, GITLAB_STATUS } = await Promise.resolve(/* import() */).then(__webpack_require__.bind(__webpack_require__, 9941));
    const status = GITLAB_STATUS[wanted ?? 'canceled'];
    try {
        const door = GitLabApi.open({ token, project: saved.project, apiUrl: saved.apiUrl }).closing(GITHUB_LIMIT_MS);
        // A call whose answer was lost may have set it: GitLab refuses a move to the status a deployment has (400).
        const now = (await door.latestStatus(saved.id))?.state;
        if (now !== undefined && FINISHED[now] !== undefined) {
            port/* info */.pq(`GitLab deployment ${saved.id} is ${FINISHED[now]} already: the post step has nothing to set.`);
            return undefined;
        }
        await door.setDeploymentState(saved.id, { state: wanted ?? 'canceled', description: why });
        port/* info */.pq(`Set GitLab deployment ${saved.id} to ${status}: ${why}.`);
        return `set GitLab deployment ${saved.id} to ${status} (it was left running)`;
    }
    catch (error) {
        port/* warning */.$e(`Could not set GitLab deployment ${saved.id} to ${status} (${(0,secrets/* redact */.E$)((0,errors/* describeError */.Uc)(error))}).`);
        return undefined;
    }
}
/** The main step never wrote its report: say so, and list only what the post step did. */
async function writeSummary(done) {
    const items = done.length > 0 ? done.map((line) => `- ${line}`) : ['- nothing: it had nothing left to finish, or could not (see its warnings)'];
    const text = [
        '### Bloomreach Cloud deploy: post step',
        '',
        'The main step was stopped before it wrote its report; what the post step could do:',
        '',
        ...items,
        '',
        'The post step never deploys or rolls back: check the environment in the console.',
        ''
    ].join('\n');
    // Outside a runner there is no summary file: the port skips it, as in report.ts.
    await port/* writeSummary */.Sy(text);
}


/***/ })

};
