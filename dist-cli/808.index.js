export const id = 808;
export const ids = [808];
export const modules = {

/***/ 14730:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   G2: () => (/* binding */ keepReading),
/* harmony export */   XA: () => (/* binding */ MAX_READINGS),
/* harmony export */   f2: () => (/* binding */ newDeployResult)
/* harmony export */ });
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


/***/ }),

/***/ 85808:
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
// EXTERNAL MODULE: ./src/tracing/plan.ts + 1 modules
var plan = __webpack_require__(65185);
// EXTERNAL MODULE: ./src/tracing/said.ts
var said = __webpack_require__(61549);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: ./src/deploy/result.ts
var result = __webpack_require__(14730);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
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
        resource: resourceFromAttributes({ ...tracing.resource, 'service.name': tracing.serviceName, 'service.version': (0,version/* version */.r)() }),
        sampler: new AlwaysOnSampler(),
        idGenerator: idsFrom(tracing),
        spanLimits: { eventCountLimit: result/* MAX_READINGS */.XA + 100, attributeCountLimit: 256 },
        spanProcessors: [collect]
    });
    const tracer = provider.getTracer('brcloud-deploy', (0,version/* version */.r)());
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


/***/ }),

/***/ 65185:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  s: () => (/* binding */ defined),
  a: () => (/* binding */ planRunTrace)
});

// EXTERNAL MODULE: ./src/report.ts
var report = __webpack_require__(70665);
;// CONCATENATED MODULE: ./src/tracing/names.ts
// A phase's span name: the log group's title names ids and environments ("Wait until 'production' runs 6f1c…"), which
// a trace viewer would list as that many operations. The span is named by the kind of phase; the title stays as
// the brcloud.phase attribute.
/** Each phase's title as it begins (src/deploy, src/search-check.ts), and its span's name. */
const NAMES = [
    ['Build: ', 'build'],
    ['Prepare the distribution', 'prepare distribution'],
    ['Log in to ', 'login'],
    ['Find the config files', 'find config files'],
    ['Find environment ', 'find environment'],
    ['Find what ', 'find running distribution'],
    ['Check distribution ', 'check distribution'],
    ['Check the deploy order', 'check deploy order'],
    ['Check the soak gate', 'check soak gate'],
    ['Check the backups', 'check backups'],
    ['Look for an identical distribution', 'find identical distribution'],
    ['Prune old distributions', 'prune'],
    ['Upload the distribution', 'upload'],
    ['Deploy to ', 'deploy'],
    ['Wait until ', 'follow deploy'],
    ['Health check ', 'health check'],
    ['Roll back ', 'rollback'],
    ['Search check', 'search check']
];
/** The span name of a phase with this title; a title the table does not know keeps its first word ("phase" when it has none). */
function spanNameOf(title) {
    const known = NAMES.find(([prefix]) => title.startsWith(prefix));
    if (known !== undefined)
        return known[1];
    return title.split(/[\s:]/)[0]?.toLowerCase() || 'phase';
}
/** Every span name a phase may get: for the docs and the tests. */
const PHASE_SPAN_NAMES = NAMES.map(([, name]) => name);

;// CONCATENATED MODULE: ./src/tracing/plan.ts


/** The run's trace: one root span with the phases nested by time, the looks and release states as events, each health attempt and rollback step a span. */
function planRunTrace(result, facts) {
    const root = rootSpan(result, facts);
    const phases = nestPhases(root, result.phases, result, facts);
    const d = result.deploy;
    for (const look of d?.looks ?? [])
        innermost(root, phases, look.at, 'ends').events.push(lookEvent(look));
    for (const t of d?.release?.transitions ?? [])
        root.events.push(transitionEvent(t));
    for (const attempt of d?.healthAttempts ?? [])
        innermost(root, phases, attempt.startedAt, 'begins', attempt.endedAt).children.push(attemptSpan(attempt));
    const rollback = phases.find((p) => p.name === 'rollback');
    if (rollback !== undefined)
        rollback.children.push(...rollbackSteps(d, rollback));
    return freeze(root);
}
function rootSpan(result, facts) {
    const failed = result.error !== undefined;
    return {
        name: result.deploys ? 'brcloud deploy' : 'brcloud search-check',
        kind: 'internal',
        start: facts.startedAt,
        end: lastMoment(result, facts),
        attributes: { ...cicdAttributes(result, facts), ...deploymentAttributes(result, facts), ...brcloudAttributes(result, facts) },
        events: [],
        status: failed ? { code: 'error', message: result.error } : { code: 'ok' },
        children: []
    };
}
/**
 * When the run ended: when it reported, or later when a phase, an attempt or a look it still saw ended after that (a
 * stopped run's steps unwind while it reports): the root holds every moment the trace shows.
 */
function lastMoment(result, facts) {
    const d = result.deploy;
    return Math.max(facts.startedAt, facts.endedAt, ...result.phases.map((p) => p.startedAt + p.ms), ...(d?.healthAttempts ?? []).map((a) => a.endedAt), ...(d?.looks ?? []).map((l) => l.at), ...(d?.release?.transitions ?? []).map((t) => t.at));
}
/** The task-run attributes of OpenTelemetry's CICD conventions; the result in their words. */
function cicdAttributes(result, facts) {
    const { context } = facts;
    return defined({
        'cicd.pipeline.task.name': result.deploys ? 'brcloud deploy' : 'brcloud search-check',
        'cicd.pipeline.task.type': result.deploys ? 'deploy' : 'test',
        'cicd.pipeline.task.run.result': taskResult(result),
        'cicd.pipeline.run.id': context.runId || undefined,
        'cicd.pipeline.run.url.full': context.runUrl,
        'error.type': result.error === undefined ? undefined : errorType(result, facts.failure),
        'vcs.ref.head.revision': facts.observed?.commit ?? (context.sha || undefined),
        'vcs.ref.head.name': facts.observed === undefined ? context.ref || undefined : facts.observed.ref,
        // OpenTelemetry's VCS conventions: the repository's own name (no owner), and its address in full.
        'vcs.repository.name': context.repository.split('/').at(-1) || undefined,
        'vcs.repository.url.full': context.repository && context.serverUrl ? `${context.serverUrl.replace(/\/+$/, '')}/${context.repository}` : undefined
    });
}
function taskResult(result) {
    if (result.error === undefined)
        return 'success';
    if (result.stopped === 'watchdog')
        return 'timeout';
    if (result.stopped !== undefined)
        return 'cancellation';
    return 'failure';
}
/** Failure classes too general to group by: the release's failure kind, or _OTHER, says more. */
const GENERAL_ERRORS = new Set(['Error', 'ActionError', 'StepFailed']);
/**
 * What a viewer groups failures by: the stop, else the release's failure kind ("unhealthy", "not-applied", "busy",
 * "older", "search"…), else the failure's class ("InputError", "LoginRefused", "OrderRefused"), else _OTHER.
 */
function errorType(result, failure) {
    if (result.stopped === 'watchdog')
        return 'timeout';
    if (result.stopped !== undefined)
        return 'cancelled';
    const kind = result.deploy?.release?.failure?.kind;
    if (kind !== undefined)
        return kind;
    return failure instanceof Error && !GENERAL_ERRORS.has(failure.name) ? failure.name : '_OTHER';
}
/** The deployment's attributes (OpenTelemetry's deployment.*), only for a run the events speak of: one that deployed or meant to. */
function deploymentAttributes(result, facts) {
    const o = facts.observed;
    if (o === undefined)
        return defined({ 'deployment.environment.name': result.deploy?.environmentName ?? result.environment });
    return defined({
        'deployment.environment.name': o.environment,
        'deployment.id': o.chainId,
        'deployment.name': o.distribution.name,
        'deployment.status': o.outcome === 'success' ? 'succeeded' : 'failed'
    });
}
/** Outputs that are not attributes: the commits' list (JSON, long; its count is one), the trace's own id. */
const NOT_ATTRIBUTES = new Set(['changes', 'trace-id']);
/** Our own: every output the run set, as brcloud.<name with underscores>, and what the run was asked and found. */
function brcloudAttributes(result, facts) {
    const d = result.deploy;
    const outputs = {};
    for (const [name, value] of Object.entries((0,report/* outputValues */.uN)(result))) {
        if (!NOT_ATTRIBUTES.has(name) && value !== undefined)
            outputs[`brcloud.${name.replace(/-/g, '_')}`] = value;
    }
    return defined({
        ...outputs,
        'brcloud.stack': d?.target ?? facts.stack,
        'brcloud.environment': d?.environmentName ?? result.environment,
        'brcloud.source': d?.source,
        'brcloud.dry_run': d?.dryRun,
        'brcloud.outcome': (0,report/* headline */.Pl)(result),
        'brcloud.stopped': result.stopped,
        'brcloud.events': facts.observed?.events.map((e) => e.kind),
        'brcloud.changes.count': facts.observed?.changes?.total,
        ...uploadAttributes(d),
        'brcloud.token_renewals': d?.tokenRenewals,
        'brcloud.override_reason': d?.rules?.override?.reason,
        'brcloud.backup.id': d?.rules?.backup?.id,
        'brcloud.refused_by': d?.rules?.refusedBy,
        'brcloud.search.passed': result.search?.passed
    });
}
/** The archive's size, and the bytes the platform accepted (an upload this run made; none for a reused or given distribution). */
function uploadAttributes(d) {
    return defined({
        'brcloud.archive.size': d?.archive?.size,
        'brcloud.upload.bytes': d?.upload !== undefined && !d.upload.adopted ? d.archive?.size : undefined,
        'brcloud.upload.attempts': d?.upload?.attempts,
        'brcloud.upload.adopted': d?.upload?.adopted
    });
}
/**
 * The phases as spans, nested by time: a phase that began and ended within another (the release's follow within its
 * deploy) is its child. A phase still running when the run reported is not in the timeline, so no span claims it.
 */
function nestPhases(root, phases, result, facts) {
    const spans = [];
    const open = [];
    const failedLast = [...phases].reverse().find((p) => !p.ok);
    const ordered = [...phases].sort((a, b) => a.startedAt - b.startedAt || b.ms - a.ms);
    for (const phase of ordered) {
        const span = phaseSpan(phase, phase === failedLast ? result.error : undefined, facts);
        while (open.length > 0 && !within(span, open[open.length - 1]))
            open.pop();
        (open[open.length - 1] ?? root).children.push(span);
        open.push(span);
        spans.push(span);
    }
    return spans;
}
function phaseSpan(phase, failure, facts) {
    const start = Math.max(phase.startedAt, facts.startedAt);
    return {
        name: spanNameOf(phase.name),
        kind: 'internal',
        start,
        end: Math.max(start, phase.startedAt + phase.ms),
        attributes: { 'brcloud.phase': phase.name },
        events: [],
        status: phase.ok ? { code: 'ok' } : { code: 'error', message: failure },
        children: []
    };
}
function within(inner, outer) {
    return inner.start >= outer.start && inner.end <= outer.end;
}
/**
 * The deepest phase span running from `at` to `until`, else the root: where a look (a moment) or an attempt belongs. At
 * a boundary (one phase ends in the millisecond the next begins) a look belongs to the phase it ends (the follow's last
 * look), an attempt to the phase it begins (a health check's first attempt); a phase the attempt outlasts never holds it.
 */
function innermost(root, phases, at, moment, until = at) {
    const around = phases.filter((span) => span.start <= at && until <= span.end);
    const inside = around.filter((span) => (moment === 'ends' ? span.start < at : span.end > at));
    let found;
    for (const span of inside.length > 0 ? inside : around) {
        if (found === undefined || span.start > found.start || (span.start === found.start && span.end <= found.end))
            found = span;
    }
    return found ?? root;
}
function lookEvent(look) {
    return {
        name: 'look',
        at: look.at,
        attributes: defined({ 'brcloud.look.distribution_id': look.distributionId ?? '', 'brcloud.look.status': look.status })
    };
}
function transitionEvent(t) {
    return { name: `release ${t.state}`, at: t.at, attributes: { 'brcloud.release.state': t.state, 'brcloud.evidence': t.evidence } };
}
function attemptSpan(a) {
    return {
        name: 'GET',
        kind: 'client',
        start: a.startedAt,
        end: Math.max(a.startedAt, a.endedAt),
        attributes: defined({ 'http.request.method': 'GET', 'url.full': a.url, 'http.response.status_code': a.status, 'brcloud.health.result': a.what }),
        events: [],
        status: a.ok ? { code: 'unset' } : { code: 'error', message: a.what },
        children: []
    };
}
/** The rollback's steps, each from one observed state to the next within the rollback's phase: requested, seen applied, healthy. */
function rollbackSteps(d, phase) {
    const steps = [
        ['rollback request', 'rollback-requested'],
        ['rollback switch', 'rollback-applied'],
        ['rollback health', 'rollback-healthy']
    ];
    const seen = d?.release?.transitions ?? [];
    const spans = [];
    let from = phase.start;
    for (const [name, state] of steps) {
        const t = seen.find((x) => x.state === state);
        if (t === undefined || t.at < from || t.at > phase.end)
            break;
        spans.push({
            name,
            kind: 'internal',
            start: from,
            end: t.at,
            attributes: { 'brcloud.evidence': t.evidence },
            events: [],
            status: { code: 'ok' },
            children: []
        });
        from = t.at;
    }
    return spans;
}
function freeze(span) {
    const children = [...span.children].sort((a, b) => a.start - b.start).map(freeze);
    return { ...span, events: [...span.events].sort((a, b) => a.at - b.at), children };
}
/** The attributes that have a value: an attribute never says "undefined", nor lists nothing. */
function defined(attributes) {
    const out = {};
    for (const [key, value] of Object.entries(attributes))
        if (value !== undefined && !(Array.isArray(value) && value.length === 0))
            out[key] = value;
    return out;
}


/***/ })

};
