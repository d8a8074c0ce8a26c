export const id = 124;
export const ids = [124];
export const modules = {

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


/***/ }),

/***/ 63124:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   ENVIRONMENT_SPAN: () => (/* binding */ ENVIRONMENT_SPAN),
/* harmony export */   STACK_SPAN: () => (/* binding */ STACK_SPAN),
/* harmony export */   STATUS_SPAN: () => (/* binding */ STATUS_SPAN),
/* harmony export */   planStatusTrace: () => (/* binding */ planStatusTrace)
/* harmony export */ });
/* harmony import */ var _secrets_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(27194);
/* harmony import */ var _plan_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(65185);


const STATUS_SPAN = 'brcloud status';
const STACK_SPAN = 'read stack';
const ENVIRONMENT_SPAN = 'read environment';
/** The command's trace; `report` is undefined when there was none (refused, cancelled): the root span alone. */
function planStatusTrace(report, facts) {
    const root = { startedAt: facts.startedAt, endedAt: Math.max(facts.startedAt, facts.endedAt) };
    const stacks = (report?.stacks ?? []).map((stack) => stackSpan(stack, report?.environments.filter((r) => r.stack === stack.name) ?? [], report, root));
    const reads = (report?.hostReads ?? []).map((read) => hostReadSpan(read, root));
    return span(STATUS_SPAN, 'internal', root, rootAttributes(report, facts), rootStatus(facts.ending), byStart([...stacks, ...reads]));
}
/** OpenTelemetry's CICD task-run attributes, as the deploy's root has them, and what the report read as a whole. */
function rootAttributes(report, { context, ending }) {
    const errors = report === undefined ? undefined : [...report.githubErrors, ...report.trackErrors].map(_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$);
    return (0,_plan_js__WEBPACK_IMPORTED_MODULE_1__/* .defined */ .s)({
        'cicd.pipeline.task.name': STATUS_SPAN,
        'cicd.pipeline.task.run.result': ending.result,
        'cicd.pipeline.run.id': context.runId || undefined,
        'cicd.pipeline.run.url.full': context.runUrl,
        'error.type': ending.result === 'success' ? undefined : (ending.errorType ?? '_OTHER'),
        // OpenTelemetry's VCS conventions, as the deploy's root: the repository's own name, and its address when GitHub was read.
        'vcs.repository.name': report?.repository?.split('/').at(-1) || undefined,
        'vcs.repository.url.full': report?.host === 'GitHub' && report.repository !== null ? `${context.serverUrl.replace(/\/+$/, '')}/${report.repository}` : undefined,
        'brcloud.status.exit_code': ending.exitCode,
        'brcloud.status.stopped': ending.stopped,
        'brcloud.status.code_host': report?.host,
        'brcloud.status.code_host.errors': errors,
        'brcloud.status.environments': report?.environments.length,
        'brcloud.status.drift': report === undefined ? undefined : report.environments.some((r) => r.state !== 'in-sync')
    });
}
function rootStatus(ending) {
    if (ending.result === 'success')
        return { code: 'ok' };
    return { code: 'error', message: (0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(ending.message ?? ending.errorType ?? ending.result) };
}
/** A stack's read, its environments' rows within it; its attributes are its entry in --json's stacks. */
function stackSpan(stack, rows, report, root) {
    const times = inside(stack.timing ?? root, root);
    const read = stack.errors.length === 0;
    const attributes = (0,_plan_js__WEBPACK_IMPORTED_MODULE_1__/* .defined */ .s)({
        'brcloud.stack': stack.name,
        'brcloud.stack.api_url': stack.apiUrl,
        'brcloud.stack.read': read,
        'brcloud.stack.errors': stack.errors.map(_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)
    });
    const status = read ? { code: 'ok' } : { code: 'error', message: (0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(stack.errors.join('; ')) };
    const children = rows.map((row) => rowSpan(row, stack, report, times));
    return span(STACK_SPAN, 'internal', times, attributes, status, byStart(children));
}
/** An environment row: its own read's times (a row not read on its own, its stack's), its health probe inside. */
function rowSpan(row, stack, report, parent) {
    const own = row.environment === null ? undefined : stack.timing?.environments.find((t) => t.environment === row.environment);
    const times = inside(own ?? parent, parent);
    const unread = unreadReason(row, stack, report);
    const status = unread === undefined ? { code: 'ok' } : { code: 'error', message: (0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(unread) };
    const probe = own?.probe === undefined ? [] : [probeSpan(own.probe, times)];
    return span(ENVIRONMENT_SPAN, 'internal', times, rowAttributes(row), status, probe);
}
/** The row's reason, when the report counts it among what could not be read (a stack's, the code host's, a tracked ref's). */
function unreadReason(row, stack, report) {
    const reason = row.reason;
    if (reason === null)
        return undefined;
    const failures = [...stack.errors, ...(report?.githubErrors ?? []), ...(report?.trackErrors ?? [])];
    return failures.includes(reason) || failures.includes(`${row.environment ?? ''}: ${reason}`) ? reason : undefined;
}
/**
 * A row's values as attributes, exactly as --json prints them (null ones left out): `stack` and `environment` as the
 * deploy names them (brcloud.stack, brcloud.environment), every other field brcloud.status.<field in snake case>, an
 * object's fields under its name (brcloud.status.last_deployment.commit, brcloud.status.backup.age_hours).
 */
function rowAttributes(row) {
    const out = {};
    const walk = (value, path) => {
        for (const [key, v] of Object.entries(value)) {
            const at = [...path, key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
            if (v === null || v === undefined)
                continue;
            if (typeof v === 'object')
                walk(v, at);
            else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
                out[rowAttributeName(at)] = typeof v === 'string' ? (0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(v) : v;
        }
    };
    walk(row, []);
    return out;
}
function rowAttributeName(path) {
    const name = path.join('.');
    return name === 'stack' || name === 'environment' ? `brcloud.${name}` : `brcloud.status.${name}`;
}
/** The health probe's one GET (redirects followed within it), as the deploy's health attempts are spans. */
function probeSpan(a, parent) {
    const attributes = (0,_plan_js__WEBPACK_IMPORTED_MODULE_1__/* .defined */ .s)({
        'http.request.method': 'GET',
        'url.full': (0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(a.url),
        'http.response.status_code': a.status,
        'brcloud.health.result': (0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(a.what)
    });
    return span('GET', 'client', inside(a, parent), attributes, a.ok ? { code: 'unset' } : { code: 'error', message: (0,_secrets_js__WEBPACK_IMPORTED_MODULE_0__/* .redact */ .E$)(a.what) }, []);
}
/** One call to the code's host ("GitHub compare"), shared by the rows that asked it: a child of the root. */
function hostReadSpan(read, root) {
    const attributes = (0,_plan_js__WEBPACK_IMPORTED_MODULE_1__/* .defined */ .s)({ 'brcloud.code_host': read.host, 'brcloud.code_host.call': read.call, 'error.type': read.failure });
    const status = read.failure === undefined ? { code: 'unset' } : { code: 'error', message: read.failure };
    return span(`${read.host} ${read.call}`, 'client', inside(read, root), attributes, status, []);
}
function span(name, kind, times, attributes, status, children) {
    return { name, kind, start: times.startedAt, end: times.endedAt, attributes, events: [], status, children };
}
/** `times` within `parent`'s: the clock may step while a read runs, and a child never outlasts its parent. */
function inside(times, parent) {
    const startedAt = Math.min(Math.max(times.startedAt, parent.startedAt), parent.endedAt);
    return { startedAt, endedAt: Math.min(Math.max(times.endedAt, startedAt), parent.endedAt) };
}
function byStart(spans) {
    return [...spans].sort((a, b) => a.start - b.start);
}


/***/ })

};
