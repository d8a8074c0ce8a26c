export const id = 124;
export const ids = [124];
export const modules = {

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
/* harmony import */ var _plan_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(69082);


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
