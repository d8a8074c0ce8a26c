export const id = 123;
export const ids = [123];
export const modules = {

/***/ 5123:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   tellOthers: () => (/* binding */ tellOthers)
/* harmony export */ });
/* harmony import */ var _port_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8676);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3916);
/* harmony import */ var _http_time_limit_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(3689);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7194);
/* harmony import */ var _sinks_post_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(894);
// Tells every sink about the run, all at once, each under its own time limit (http/time-limit.ts: on the clock a
// simulation drives). A sink that fails or hangs costs one warning that names the service and why, never its
// address or token; nothing here throws, and nothing here changes the run's outcome.





/**
 * Sends `run` to every sink in parallel; resolves when each has answered, failed or run out of its `limitMs`.
 * `limitName` says where the limit comes from, in the warning: events-timeout-seconds, or the shorter time a stop leaves.
 */
async function tellOthers(run, sinks, limitMs, stopSignal, limitName = 'events-timeout-seconds') {
    if (sinks.length === 0 || limitMs <= 0 || stopSignal?.aborted)
        return;
    await Promise.all(sinks.map(async (sink) => {
        const limit = (0,_http_time_limit_js__WEBPACK_IMPORTED_MODULE_3__/* .timeLimit */ .z)(limitMs, stopSignal);
        try {
            // A sink that ignores its signal still ends here at its limit.
            const sent = await Promise.race([sink.send(run, limit.signal), aborted(limit.signal)]);
            _port_js__WEBPACK_IMPORTED_MODULE_4__/* .info */ .pq(sent === false ? `Events: nothing to tell ${sink.name} about this run.` : `Events: ${sink.name} told.`);
        }
        catch (error) {
            _port_js__WEBPACK_IMPORTED_MODULE_4__/* .warning */ .$e(`Events: ${sink.name} was not told: ${why(error, sink.name, limit.expired(), limitMs, limitName)}. The deployment's outcome is unchanged.`);
        }
        finally {
            limit.clear();
        }
    }));
}
/** Why a send failed, in words that carry no address and no secret. */
function why(error, service, expired, limitMs, limitName) {
    if (expired)
        return `no answer within ${+(limitMs / 1000).toFixed(1)} s (${limitName})`;
    // "Slack answered 404: no_service" (the sink's own words, already free of addresses and tokens) as "it answered ...".
    if (error instanceof _sinks_post_js__WEBPACK_IMPORTED_MODULE_2__/* .SinkCallFailed */ .nu)
        return error.message.startsWith(`${service} `) ? `it ${error.message.slice(service.length + 1)}` : error.message;
    if (error?.name === 'TimeoutError' || error?.name === 'CallTimeoutError')
        return 'its call ran out of time';
    const code = (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .systemErrorCode */ .vq)(error);
    if (code !== undefined)
        return `the connection failed (${code})`;
    if (error?.name === 'AbortError' || error instanceof DOMException)
        return 'the run was stopped';
    const text = error instanceof Error ? error.message : String(error);
    return (0,_secrets_js__WEBPACK_IMPORTED_MODULE_1__/* .redact */ .E$)(text).replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<address>');
}
function aborted(signal) {
    return new Promise((_, reject) => {
        if (signal.aborted)
            return reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
}


/***/ }),

/***/ 894:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   B2: () => (/* binding */ postJson),
/* harmony export */   _I: () => (/* binding */ scrub),
/* harmony export */   nu: () => (/* binding */ SinkCallFailed)
/* harmony export */ });
/* unused harmony exports answerFailed, errorText */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3916);
/* harmony import */ var _http_transport_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(5848);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7194);
// The one way a native sink calls its service: JSON over the project's HttpTransport, ended by the
// dispatcher's signal, and a failure that names the service and its status without the address or a
// token (a webhook's URL is its secret; a service may echo what it was sent).



const USER_AGENT = 'brcloud-deploy (events)';
/** A service's own error text is quoted when it is at most this long (a page of HTML is not). */
const SHORT_TEXT = 200;
/** A service answered with a status that is not a success, or not at all. Carries no address and no token. */
class SinkCallFailed extends Error {
    status;
    name = 'SinkCallFailed';
    constructor(message, 
    /** The answer's status; undefined when there was no answer. */
    status) {
        super(message);
        this.status = status;
    }
}
/** POSTs `body` as JSON; the answer when its status is 2xx, otherwise a SinkCallFailed. */
async function postJson(call) {
    const { base, path } = split(call);
    // A webhook's whole address is its secret, its path and query too.
    const secrets = [...call.secrets, call.url, ...(call.webhook === true && path.length > 1 ? [path] : [])];
    const transport = new _http_transport_js__WEBPACK_IMPORTED_MODULE_1__/* .HttpTransport */ .G(base, { userAgent: USER_AGENT, signal: call.signal });
    let res;
    try {
        res = await transport.send({
            method: 'POST',
            path,
            headers: { 'content-type': 'application/json', ...call.headers },
            body: JSON.stringify(call.body)
        });
    }
    catch (error) {
        // The time limit or the run's stop: the dispatcher reads its own signal's reason.
        if (call.signal.aborted)
            throw call.signal.reason;
        const code = (0,_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .systemErrorCode */ .vq)(error);
        const why = code ?? scrub(error instanceof Error ? error.message : String(error), secrets);
        throw new SinkCallFailed(`${call.service} could not be reached (${why})`);
    }
    finally {
        await transport.close();
    }
    if (res.status < 200 || res.status > 299)
        throw answerFailed(call.service, res, secrets);
    return res;
}
/** "Grafana answered 401: invalid API key": the service's own words when they are short, never an address or token. */
function answerFailed(service, res, secrets) {
    const text = errorText(res.text);
    const shown = text === undefined ? '' : scrub(text, secrets);
    return new SinkCallFailed(`${service} answered ${res.status}${shown ? `: ${shown}` : ''}`, res.status);
}
/** The error text of an answer: a JSON body's message/error/detail (first of errors[]), or a short plain text. */
function errorText(body) {
    let text;
    try {
        text = messageOf(JSON.parse(body));
    }
    catch {
        text = /^\s*</.test(body) ? undefined : body;
    }
    const line = text?.replace(/\s+/g, ' ').trim();
    return line && line.length <= SHORT_TEXT ? line : undefined;
}
function messageOf(value) {
    if (typeof value === 'string')
        return value;
    if (Array.isArray(value))
        return messageOf(value[0]);
    if (value === null || typeof value !== 'object')
        return undefined;
    const o = value;
    for (const key of ['message', 'error', 'detail', 'title', 'errors']) {
        const found = messageOf(o[key]);
        if (found)
            return found;
    }
    return undefined;
}
/** The text with every secret of this call (and every one the run registered) replaced by ***. */
function scrub(text, secrets) {
    let out = text;
    for (const s of [...secrets].filter(Boolean).sort((a, b) => b.length - a.length)) {
        out = out.split(s).join('***').split(encodeURIComponent(s)).join('***');
    }
    return (0,_secrets_js__WEBPACK_IMPORTED_MODULE_2__/* .redact */ .E$)(out);
}
/** The transport's base (origin and path prefix, no trailing slash) and the path of this call. */
function split(call) {
    let url;
    try {
        url = new URL(call.url);
    }
    catch {
        throw new SinkCallFailed(`${call.service}: its address is not a URL`);
    }
    const prefix = url.pathname.replace(/\/+$/, '');
    const path = `${prefix}${call.path}` || '/';
    return { base: url.origin, path: `${path}${url.search}` };
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


/***/ })

};
