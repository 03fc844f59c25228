export const id = 661;
export const ids = [661];
export const modules = {

/***/ 8422:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ko: () => (/* binding */ readInputs),
/* harmony export */   tT: () => (/* binding */ envInputReader)
/* harmony export */ });
/* unused harmony exports INPUT_DEFAULTS, MAX_TIMEOUT_MINUTES, parseCategories, parseBaseUrl */
/* harmony import */ var _contract_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7869);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3916);
/**
 * The action's inputs: read, validated and typed before any request is sent.
 * Every mistake is a ConfigError naming the input, in one line that says how
 * to fix it. Pure: the reader of raw values is passed in.
 */


/** Defaults, mirrored in action.yml (a test keeps the two equal). */
const INPUT_DEFAULTS = {
    mode: 'gate',
    min_severity: 'high',
    categories: '',
    fail_on_incomplete: 'true',
    timeout_minutes: '60',
    comment: 'update',
    issue: 'off',
    max_runs: '20'
};
/** GitHub's longest job on hosted runners is 6 h; a longer wait is a typo. */
const MAX_TIMEOUT_MINUTES = 360;
/** Shorter than a second cannot hold even the trigger: surely a typo. */
const MIN_TIMEOUT_MS = 1_000;
/** Reads `INPUT_<NAME>` from an environment, as the runner sets them. */
function envInputReader(env) {
    return (name) => (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}
function oneOf(input, raw, allowed, fallback) {
    const value = (raw === '' ? fallback : raw.toLowerCase());
    if (!allowed.includes(value)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL(input, `'${clip(raw)}' is not one of ${allowed.join(', ')}`);
    }
    return value;
}
/** Show at most 60 characters of what the user typed. */
function clip(s) {
    const flat = s.replace(/[\u0000-\u001f\u007f]/g, ' ');
    return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
function parseBoolean(input, raw, fallback) {
    if (raw === '')
        return fallback;
    if (['true', 'True', 'TRUE'].includes(raw))
        return true;
    if (['false', 'False', 'FALSE'].includes(raw))
        return false;
    throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL(input, `'${clip(raw)}' is not a boolean: use true or false`);
}
/** Category keys separated by commas and/or newlines; blanks dropped, duplicates removed, order kept. */
function parseCategories(raw) {
    const keys = raw
        .split(/[,\n\r]+/)
        .map((k) => k.trim())
        .filter((k) => k !== '');
    for (const k of keys) {
        if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(k)) {
            throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('categories', `'${clip(k)}' is not a category key (letters, digits, _ . : - only): separate keys with commas or newlines, e.g. 'prompt_injection, jailbreak'`);
        }
    }
    return [...new Set(keys)];
}
function isLoopbackHost(hostname) {
    const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}
/** https, or http for a loopback host only; no credentials, query or fragment; /api/v1 suffix tolerated. */
function parseBaseUrl(raw) {
    if (raw === '') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('base_url', "is required: the service's base address, the part before /api/v1 (e.g. https://asas.example.com)");
    }
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('base_url', `'${clip(raw)}' is not a URL: give the service's base address, e.g. https://asas.example.com`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('base_url', `scheme '${clip(url.protocol)}' is not allowed: use https://`);
    }
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('base_url', `plain http is allowed only for loopback hosts (localhost, 127.0.0.1, ::1): use https://${url.host}`);
    }
    if (url.username !== '' || url.password !== '') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('base_url', 'must not carry credentials: pass the key in api_key');
    }
    if (url.search !== '' || url.hash !== '') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('base_url', 'must not carry a query string or fragment');
    }
    const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    if (/\/api\/v1(\/|$)/.test(path)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('base_url', `'${clip(raw)}' goes past /api/v1: give only the part before it, e.g. ${url.protocol}//${url.host}`);
    }
    return `${url.protocol}//${url.host}${path}`;
}
function parseTimeoutMs(raw) {
    const text = raw === '' ? INPUT_DEFAULTS.timeout_minutes : raw;
    if (!/^\d*\.?\d+$/.test(text)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('timeout_minutes', `'${clip(text)}' is not a positive number of minutes (decimals allowed, e.g. 0.5 for 30 s)`);
    }
    const minutes = Number(text);
    if (!(minutes > 0)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('timeout_minutes', `must be greater than 0 (got '${clip(text)}')`);
    }
    if (minutes * 60_000 < MIN_TIMEOUT_MS) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('timeout_minutes', `must be at least 1 second (0.0167 minutes); got '${clip(text)}'`);
    }
    if (minutes > MAX_TIMEOUT_MINUTES) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('timeout_minutes', `must be at most ${MAX_TIMEOUT_MINUTES} (a job on hosted runners lasts 6 h at most)`);
    }
    return Math.round(minutes * 60_000);
}
function parseMaxRuns(raw) {
    const text = raw === '' ? INPUT_DEFAULTS.max_runs : raw;
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < 1 || n > 100) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('max_runs', `'${clip(text)}' is not a whole number from 1 to 100`);
    }
    return n;
}
/**
 * Read and validate every input. Throws ConfigError on the first mistake,
 * before any request is made.
 */
function readInputs(get) {
    const mode = oneOf('mode', get('mode'), ['gate', 'validate'], INPUT_DEFAULTS.mode);
    const modelId = get('model_id');
    if (modelId === '') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('model_id', 'is required: the model_id of the agent target in the service inventory (GET /api/v1/model lists them)');
    }
    if (modelId.length > 200 || /[\u0000-\u001f\u007f/?#]/.test(modelId)) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('model_id', `'${clip(modelId)}' is not a model id (no slashes, ?, # or control characters)`);
    }
    const apiKey = get('api_key');
    if (apiKey === '') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .ConfigError */ .xL('api_key', 'is empty. Pass the service key from a secret (api_key: ${{ secrets.ASAS_API_KEY }}). Secrets are not given to workflows triggered from forks: this check fails rather than skip, so a change cannot merge unassessed');
    }
    return {
        mode,
        modelId,
        minSeverity: oneOf('min_severity', get('min_severity'), _contract_js__WEBPACK_IMPORTED_MODULE_0__/* .SEVERITIES */ .oC, INPUT_DEFAULTS.min_severity),
        categories: parseCategories(get('categories')),
        apiKey,
        baseUrl: parseBaseUrl(get('base_url')),
        failOnIncomplete: parseBoolean('fail_on_incomplete', get('fail_on_incomplete'), true),
        timeoutMs: parseTimeoutMs(get('timeout_minutes')),
        githubToken: get('github_token'),
        comment: oneOf('comment', get('comment'), ['update', 'new', 'off'], INPUT_DEFAULTS.comment),
        issue: oneOf('issue', get('issue'), ['off', 'update'], INPUT_DEFAULTS.issue),
        maxRuns: parseMaxRuns(get('max_runs'))
    };
}


/***/ }),

/***/ 6661:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   runPost: () => (/* binding */ runPost)
/* harmony export */ });
/* unused harmony export POST_SETTLE_MS */
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9373);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3916);
/* harmony import */ var _inputs_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8422);
/* harmony import */ var _state_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(2462);
/* harmony import */ var _stop_run_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(2899);
/**
 * The post step: runs after the job's steps, even on cancellation. If the
 * main step started a run and could not see it stop (killed, or its cancel
 * failed), cancel it here, with the same key that started it.
 */





/** The post step has about as long as the main step had after SIGINT. */
const POST_SETTLE_MS = 5_000;
async function runPost(deps) {
    const { io, clock } = deps;
    const runId = (0,_state_js__WEBPACK_IMPORTED_MODULE_4__/* .runLeftRunning */ .w6)(io);
    if (runId === null) {
        io.log.debug('No run left running by the main step.');
        return;
    }
    try {
        const rawKey = (0,_inputs_js__WEBPACK_IMPORTED_MODULE_2__/* .envInputReader */ .tT)(io.env)('api_key');
        if (rawKey !== '')
            io.setSecret(rawKey);
        const inputs = (0,_inputs_js__WEBPACK_IMPORTED_MODULE_2__/* .readInputs */ .Ko)((0,_inputs_js__WEBPACK_IMPORTED_MODULE_2__/* .envInputReader */ .tT)(io.env));
        const api = deps.makeApi(inputs, _clock_js__WEBPACK_IMPORTED_MODULE_0__.Deadline.after(clock, POST_SETTLE_MS * 2));
        const stopped = await (0,_stop_run_js__WEBPACK_IMPORTED_MODULE_3__/* .stopRun */ .K)({ api, clock, log: io.log }, runId, {
            settleMs: POST_SETTLE_MS,
            why: 'the main step ended before the run did'
        });
        // After a 409 (not running) stopRun has already said what the run's status reads.
        if (stopped.requested && !stopped.notRunning)
            io.log.info(`Post step: cancel of run ${runId} requested${stopped.settled ? '; it has stopped' : ''}.`);
    }
    catch (err) {
        io.log.warning(`Post step could not cancel run ${runId}: ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_1__/* .describeFailure */ .Ic)(err)}`);
    }
}


/***/ }),

/***/ 2899:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   K: () => (/* binding */ stopRun)
/* harmony export */ });
/* harmony import */ var _clock_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9373);
/* harmony import */ var _contract_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7869);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3916);
/**
 * Stopping a run this step started: POST /run/{id}/cancel, then watch the
 * status (bounded) until it is terminal. Used on timeout, on SIGINT and by
 * the post step. Stopping a run is the same authority as starting it.
 */



/** How often the status is read while waiting for the cancel to take effect. */
const SETTLE_POLL_MS = 1_000;
/**
 * Cancel, then read the status until it is terminal or `settleMs` passes.
 * - 202 (any body: the description does not show it, and the contract's
 *   CancelRunResponse accepts anything): the cancel is recorded.
 * - 409 (run not running): nothing was cancelled; the status says what the
 *   run is: terminal -> it had already ended; still non-terminal at the end ->
 *   the service reported it not running but its status still reads so.
 * - any other failure: a warning, nothing more is read.
 */
async function stopRun(deps, runId, opts) {
    const { api, clock, log } = deps;
    const settleBy = _clock_js__WEBPACK_IMPORTED_MODULE_0__.Deadline.after(clock, opts.settleMs);
    const seconds = Math.round(opts.settleMs / 1000);
    let notRunning = false;
    try {
        await api.cancelRun(runId);
        log.info(`Cancelling run ${runId} (${opts.why}); waiting up to ${seconds} s for it to stop.`);
    }
    catch (err) {
        if (!(err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ServiceError */ ._7))
            throw err;
        if (err.status === 409) {
            notRunning = true;
        }
        else {
            log.warning(`Could not cancel run ${runId}: ${err.describe()}`);
            return { requested: false, last: null, settled: false, notRunning: false };
        }
    }
    let last = null;
    for (;;) {
        try {
            last = await api.getRun(runId, opts.minSeverity ? { min_severity: opts.minSeverity } : {});
            if ((0,_contract_js__WEBPACK_IMPORTED_MODULE_1__/* .isTerminal */ .Hd)(last.status)) {
                if (notRunning)
                    log.info(`Run ${runId} had already ended (status ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(last.status, 40)}) when it was to be cancelled (${opts.why}).`);
                return { requested: true, last, settled: true, notRunning };
            }
        }
        catch (err) {
            if (!(err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ServiceError */ ._7))
                throw err;
            log.debug(`Reading run ${runId} after cancel failed: ${err.describe()}`);
        }
        if (settleBy.remainingMs() < SETTLE_POLL_MS) {
            const reads = last === null ? 'its status could not be read' : `its status still reads ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .oneLine */ .TN)(last.status, 40)}`;
            log.warning(notRunning
                ? `The service reported run ${runId} not running when it was to be cancelled (${opts.why}), but ${reads} after ${seconds} s.`
                : `Run ${runId} had not stopped ${seconds} s after the cancel request (${reads}).`);
            return { requested: true, last, settled: false, notRunning };
        }
        await clock.sleep(SETTLE_POLL_MS);
    }
}


/***/ })

};

//# sourceMappingURL=661.index.js.map