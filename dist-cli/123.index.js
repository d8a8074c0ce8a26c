export const id = 123;
export const ids = [123];
export const modules = {

/***/ 85123:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   tellOthers: () => (/* binding */ tellOthers)
/* harmony export */ });
/* harmony import */ var _port_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(58676);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(83916);
/* harmony import */ var _http_time_limit_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(53689);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(27194);
/* harmony import */ var _sinks_post_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(80894);
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

/***/ 80894:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   B2: () => (/* binding */ postJson),
/* harmony export */   _I: () => (/* binding */ scrub),
/* harmony export */   nu: () => (/* binding */ SinkCallFailed)
/* harmony export */ });
/* unused harmony exports answerFailed, errorText */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(83916);
/* harmony import */ var _http_transport_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(45848);
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(27194);
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


/***/ })

};
