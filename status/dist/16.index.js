export const id = 16;
export const ids = [16];
export const modules = {

/***/ 63016:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runPlan: () => (/* binding */ runPlan),
  traceRun: () => (/* binding */ traceRun)
});

// EXTERNAL MODULE: ./src/port.ts
var port = __webpack_require__(58676);
// EXTERNAL MODULE: ./src/secrets.ts
var secrets = __webpack_require__(27194);
// EXTERNAL MODULE: ./src/tracing/plan.ts + 6 modules
var plan = __webpack_require__(69082);
// EXTERNAL MODULE: ./src/tracing/said.ts
var said = __webpack_require__(61549);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
;// CONCATENATED MODULE: ./src/deploy/result.ts
/** The most looks and health attempts a result keeps: a deploy followed for hours stays small. */
const MAX_READINGS = 1_000;
/** Keeps one more reading (a look, a health attempt) in `list`, up to MAX_READINGS. */
function keepReading(list, reading) {
    const kept = list ?? [];
    if (kept.length < MAX_READINGS)
        kept.push(reading);
    return kept;
}
/** The result of a deployment that has just begun: what the inputs say, nothing done yet. */
function newDeployResult(inputs) {
    const { address } = inputs;
    return {
        apiUrl: address.apiUrl,
        target: address.stack ?? address.apiUrl,
        consoleUrl: address.consoleUrl,
        dryRun: inputs.dryRun,
        strategy: inputs.deployStrategy,
        rollback: inputs.rollback,
        rollbackOnSearch: inputs.rollbackOnSearch,
        environmentName: inputs.environment,
        source: inputs.source.kind,
        fromEnvironment: inputs.source.kind === 'environment' ? inputs.source.name : undefined,
        configFiles: inputs.configFiles,
        skipped: false,
        rules: {},
        cautions: [],
        plan: [],
        completed: false,
        tokenRenewals: 0
    };
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
;// CONCATENATED MODULE: ./src/version.ts
// The package's version, for --version and a trace's service.version.

/** The package's version, from the package.json beside the bundle's folder (dist/.., dist-cli/..; status/dist/../..) or src/.. in the repository. */
function version() {
    for (const path of ['../package.json', '../../package.json']) {
        try {
            const pkg = JSON.parse((0,external_node_fs_.readFileSync)(new URL(path, import.meta.url), 'utf8'));
            if (pkg.name === 'brcloud-deploy' && pkg.version)
                return pkg.version;
        }
        catch {
            // not this one
        }
    }
    return 'unknown';
}

;// CONCATENATED MODULE: ./src/tracing/send.ts
// The trace's one export (issue 45): the planned spans made into OpenTelemetry spans with their observed times, and
// sent once to the collector over OTLP/HTTP, within a time limit, ended at once by a hurry. OpenTelemetry's libraries
// are loaded here only, and only when tracing is on. Nothing here throws: a collector that is down, slow or refusing
// is one warning; the run's outcome never depends on it.



/** Sends the run's trace; never throws. */
async function sendTrace(plan, tracing, options) {
    if (tracing.parent !== undefined && !tracing.parent.sampled)
        return { sent: false, why: "TRACEPARENT says the pipeline's trace is not sampled" };
    let exporter;
    try {
        const spans = await makeSpans(plan, tracing);
        exporter = await exporterFor(tracing, options.limitMs);
        return await exportWithin(exporter, spans, options);
    }
    catch (error) {
        return { sent: false, why: error instanceof Error ? error.message : String(error) };
    }
    finally {
        // Not awaited: a hung connection must not hold the run; the exporter's own limit ends it.
        // Stryker disable next-line OptionalChaining,BlockStatement: frees the exporter's sockets, which its own limit closes too; nothing a test can see
        void exporter?.shutdown().catch(() => undefined);
    }
}
/** The planned spans as ended OpenTelemetry spans, ids chosen ahead (the root's is the trace-id output's span). */
async function makeSpans(plan, tracing) {
    const [{ BasicTracerProvider, AlwaysOnSampler }, { resourceFromAttributes }, api] = await Promise.all([
        Promise.all(/* import() */[__webpack_require__.e(914), __webpack_require__.e(647), __webpack_require__.e(644)]).then(__webpack_require__.bind(__webpack_require__, 19644)),
        Promise.all(/* import() */[__webpack_require__.e(914), __webpack_require__.e(647)]).then(__webpack_require__.bind(__webpack_require__, 75647)),
        __webpack_require__.e(/* import() */ 914).then(__webpack_require__.bind(__webpack_require__, 63914))
    ]);
    const ended = [];
    const collect = {
        onStart: () => undefined,
        onEnd: (span) => void ended.push(span),
        forceFlush: () => Promise.resolve(),
        shutdown: () => Promise.resolve()
    };
    const provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ ...tracing.resource, 'service.name': tracing.serviceName, 'service.version': version() }),
        sampler: new AlwaysOnSampler(),
        idGenerator: idsFrom(tracing),
        spanLimits: { eventCountLimit: MAX_READINGS + 100, attributeCountLimit: 256 },
        spanProcessors: [collect]
    });
    const tracer = provider.getTracer('brcloud-deploy', version());
    const parent = tracing.parent;
    const root = parent
        ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
            traceId: parent.traceId,
            spanId: parent.spanId,
            traceFlags: api.TraceFlags.SAMPLED,
            isRemote: true,
            ...(parent.traceState !== undefined && { traceState: api.createTraceState(parent.traceState) })
        })
        : api.ROOT_CONTEXT;
    emit(tracer, api, plan, root);
    return ended;
}
/** Ids as tracing/config.ts chose them: the run's trace id, and the root span's id first. */
function idsFrom(tracing) {
    let first = true;
    return {
        generateTraceId: () => tracing.traceId,
        generateSpanId: () => {
            if (first) {
                first = false;
                return tracing.rootSpanId;
            }
            const id = (0,external_node_crypto_.randomBytes)(8).toString('hex');
            // Stryker disable next-line Regex,ConditionalExpression: an all-zero id is a 2^-64 draw (invalid in W3C's terms), beyond a test's reach
            return /^0+$/.test(id) ? '0000000000000001' : id;
        }
    };
}
/** One planned span and its children, begun and ended at their observed times. */
function emit(tracer, api, planned, parent) {
    const span = tracer.startSpan(planned.name, {
        kind: planned.kind === 'client' ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
        startTime: hrTime(planned.start),
        attributes: otelAttributes(planned.attributes)
    }, parent);
    for (const event of planned.events)
        span.addEvent(event.name, otelAttributes(event.attributes), hrTime(event.at));
    const code = { ok: api.SpanStatusCode.OK, error: api.SpanStatusCode.ERROR, unset: api.SpanStatusCode.UNSET }[planned.status.code];
    if (code !== api.SpanStatusCode.UNSET)
        span.setStatus({ code, ...(planned.status.message !== undefined && { message: planned.status.message }) });
    const inside = api.trace.setSpan(parent, span);
    for (const child of planned.children)
        emit(tracer, api, child, inside);
    span.end(hrTime(planned.end));
}
/** The plan's attributes as OpenTelemetry takes them (its arrays are mutable). */
function otelAttributes(attributes) {
    const out = {};
    for (const [key, value] of Object.entries(attributes))
        out[key] = typeof value === 'object' ? [...value] : value;
    return out;
}
/** Date.now() as [seconds, nanoseconds]: never mistaken for a time since the process began. */
function hrTime(ms) {
    const whole = Math.floor(ms);
    return [Math.floor(whole / 1000), (whole % 1000) * 1_000_000];
}
/** The OTLP/HTTP exporter of the protocol asked for, with the run's address, headers and limit. */
async function exporterFor(tracing, limitMs) {
    const config = {
        url: tracing.url,
        headers: { ...tracing.headers },
        timeoutMillis: Math.max(1, limitMs),
        compression: tracing.compression,
        // Stryker disable next-line BooleanLiteral: one export per run; a kept-alive socket would only outlive it
        keepAlive: false
    };
    if (tracing.protocol === 'http/json') {
        const { OTLPTraceExporter } = await Promise.all(/* import() */[__webpack_require__.e(914), __webpack_require__.e(647), __webpack_require__.e(488), __webpack_require__.e(4)]).then(__webpack_require__.bind(__webpack_require__, 86004));
        return new OTLPTraceExporter(config);
    }
    const { OTLPTraceExporter } = await Promise.all(/* import() */[__webpack_require__.e(914), __webpack_require__.e(647), __webpack_require__.e(488), __webpack_require__.e(358)]).then(__webpack_require__.bind(__webpack_require__, 57358));
    return new OTLPTraceExporter(config);
}
/** One export call, within the limit, ended by the hurry; what the collector's answer or its absence means. */
function exportWithin(exporter, spans, options) {
    return new Promise((resolve) => {
        const timer = setTimeout(() => done({ sent: false, why: `no answer within ${options.limitName} (${options.limitMs / 1000} s)` }), options.limitMs);
        const onHurry = () => done({ sent: false, why: 'the run was asked to end at once' });
        function done(sent) {
            clearTimeout(timer);
            options.hurry.removeEventListener('abort', onHurry);
            resolve(sent);
        }
        if (options.hurry.aborted)
            return done({ sent: false, why: 'the run was asked to end at once' });
        options.hurry.addEventListener('abort', onHurry, { once: true });
        exporter.export(spans, (result) => done(result.code === 0 ? { sent: true } : { sent: false, why: result.error?.message ?? 'the collector refused it' }));
    });
}

;// CONCATENATED MODULE: ./src/tracing/index.ts
// Tracing a run (issue 45, docs/tracing.md): after the report, the run is planned as a trace from its result
// (./plan.ts) and sent once (./send.ts). Loaded by main.ts only when tracing is on. Never throws, never changes the
// outcome: a trace that could not be sent is one warning.





/** Plans the run's trace and sends it; says in one line what became of it (`unchanged`: what a failure leaves as it was). */
async function traceRun(plan, tracing, options, unchanged = "The deployment's outcome is unchanged.") {
    let spans;
    try {
        spans = plan();
    }
    catch (error) {
        port/* warning */.$e(`Tracing: no trace was made (${(0,secrets/* redact */.E$)(String(error))}). ${unchanged}`);
        return;
    }
    const sent = await sendTrace(spans, tracing, options);
    (0,said/* sayTrace */.P)(tracing, sent.sent ? { sent: true, spans: count(spans) } : sent, unchanged);
}
/** The deploy's or the search check's run, planned: what traceRun takes for a run of the action or the command. */
function runPlan(...args) {
    return () => (0,plan/* planRunTrace */.a)(...args);
}
function count(span) {
    return 1 + span.children.reduce((n, c) => n + count(c), 0);
}


/***/ })

};
