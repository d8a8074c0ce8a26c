export const id = 359;
export const ids = [359];
export const modules = {

/***/ 72359:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   actionPort: () => (/* binding */ actionPort)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(57264);
/* harmony import */ var _github_runner_context_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(72579);
// The action's face: the engine's port (src/port.ts) on @actions/core, as a runner reads it. Inputs come from
// INPUT_* variables, outputs, state and the summary go to the runner's files, log lines and masks to stdout
// as workflow commands; the run's context from the runner's variables.


const actionPort = {
    getInput: (name, options) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getInput */ .V4(name, options),
    setOutput: (name, value) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setOutput */ .uH(name, value),
    info: (message) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .info */ .pq(message),
    warning: (message) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .warning */ .$e(message),
    error: (message) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .error */ .z3(message),
    notice: (message) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .notice */ .lm(message),
    debug: (message) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .debug */ .Yz(message),
    isDebug: () => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .isDebug */ ._o(),
    group: (name, fn) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .group */ .Os(name, fn),
    setSecret: (secret) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setSecret */ .Pq(secret),
    // Outside a runner (a local run) there is no summary file: nothing is written, quietly.
    writeSummary: async (markdown) => {
        if (!process.env.GITHUB_STEP_SUMMARY)
            return false;
        await _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .summary */ .z.addRaw(markdown).write();
        return true;
    },
    // Only through the runner's state file. Without it (a local run), core.saveState would print the value
    // (a refresh token among them) as a workflow command on stdout, and there is no post step to read it anyway.
    saveState: (name, value) => {
        if (process.env.GITHUB_STATE)
            _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ(name, value);
    },
    getState: (name) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu(name),
    setFailed: (message) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setFailed */ .C1(message),
    getIDToken: (audience) => _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getIDToken */ .V9(audience),
    runContext: () => (0,_github_runner_context_js__WEBPACK_IMPORTED_MODULE_1__/* .runnerContext */ .cE)()
};


/***/ })

};
