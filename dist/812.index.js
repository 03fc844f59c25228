export const id = 812;
export const ids = [812,702,648];
export const modules = {

/***/ 6702:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createIssuesApi: () => (/* binding */ createIssuesApi),
/* harmony export */   d5: () => (/* binding */ explainGitHubFailure)
/* harmony export */ });
/* unused harmony exports PER_PAGE, hasNextLink, githubRetryAfterMs, toServiceError, issuesApiOver */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3916);
/* harmony import */ var _retry_policy_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2976);


const PER_PAGE = 100;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Whether a Link header holds rel="next". */
function hasNextLink(link) {
    if (!link)
        return false;
    return link.split(',').some((part) => {
        const rel = /;\s*rel="?([^";]*)"?/.exec(part)?.[1] ?? '';
        return rel.trim().split(/\s+/).includes('next');
    });
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function header(headers, name) {
    if (!isRecord(headers))
        return undefined;
    const value = headers[name] ?? headers[name.toLowerCase()];
    if (typeof value === 'string')
        return value;
    if (typeof value === 'number')
        return String(value);
    return undefined;
}
function isRequestErrorLike(err) {
    return err instanceof Error && (err.name === 'HttpError' || err.name === 'AbortError' || 'status' in err);
}
/**
 * When GitHub asked us to wait: Retry-After first (secondary rate limits send
 * it with a 403 or 429), else x-ratelimit-reset when x-ratelimit-remaining is 0.
 */
function githubRetryAfterMs(headers, nowMs) {
    const retryAfter = (0,_retry_policy_js__WEBPACK_IMPORTED_MODULE_1__/* .parseRetryAfter */ .mu)(header(headers, 'retry-after'), nowMs);
    if (retryAfter !== undefined)
        return retryAfter;
    if (header(headers, 'x-ratelimit-remaining') === '0') {
        const reset = Number(header(headers, 'x-ratelimit-reset'));
        if (Number.isFinite(reset) && reset > 0)
            return Math.max(0, reset * 1000 - nowMs) + 1000;
    }
    return undefined;
}
function githubMessage(data, fallback) {
    if (isRecord(data) && typeof data.message === 'string') {
        const errors = Array.isArray(data.errors) ? data.errors : [];
        const details = errors
            .map((e) => (isRecord(e) && typeof e.message === 'string' ? e.message : isRecord(e) && typeof e.code === 'string' ? e.code : ''))
            .filter((s) => s !== '');
        return details.length > 0 ? `${data.message}: ${details.join(', ')}` : data.message;
    }
    if (typeof data === 'string' && data.trim() !== '')
        return data.slice(0, 300);
    return fallback;
}
function githubCode(data) {
    if (!isRecord(data) || !Array.isArray(data.errors))
        return undefined;
    const first = data.errors.find((e) => isRecord(e) && typeof e.code === 'string');
    return isRecord(first) ? first.code : undefined;
}
function causeMessage(err) {
    let cur = err;
    for (let i = 0; i < 4 && cur instanceof Error; i++) {
        const code = cur.code;
        if (typeof code === 'string' && /^E[A-Z_]+$/.test(code))
            return code;
        cur = cur.cause;
    }
    return undefined;
}
/**
 * Octokit's RequestError (or a fetch failure) as a ServiceError. `timedOut`
 * tells that our own per-request timeout fired.
 */
function toServiceError(err, endpoint, nowMs, timedOut = false) {
    if (err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7)
        return err;
    if (timedOut) {
        return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7({
            endpoint,
            code: 'request_timeout',
            message: 'GitHub did not answer within the request timeout',
            transient: true,
            ambiguous: true
        });
    }
    if (!isRequestErrorLike(err) || err.response === undefined) {
        // No answer at all: connection refused or reset, DNS, TLS, aborted by the fetch layer.
        const message = err instanceof Error ? err.message : String(err);
        return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7({
            endpoint,
            code: causeMessage(err) ?? 'network_error',
            message: `no answer from GitHub: ${message}`,
            transient: true,
            ambiguous: true
        });
    }
    const status = err.response.status;
    const headers = err.response.headers;
    const data = err.response.data;
    const retryAfterMs = githubRetryAfterMs(headers, nowMs);
    const primaryLimit = header(headers, 'x-ratelimit-remaining') === '0';
    const message = githubMessage(data, err.message || `HTTP ${status}`);
    const secondaryLimit = (status === 403 || status === 429) && (header(headers, 'retry-after') !== undefined || /secondary rate limit/i.test(message));
    const rateLimited = status === 429 || ((status === 403 || status === 429) && (primaryLimit || secondaryLimit));
    const code = rateLimited ? (secondaryLimit ? 'secondary_rate_limit' : 'rate_limited') : githubCode(data);
    const transient = status >= 500 || status === 408 || status === 429 || rateLimited;
    return new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7({
        endpoint,
        status,
        code,
        message,
        retryAfterMs,
        transient,
        ambiguous: status >= 500 || status === 408
    });
}
function asComment(data, endpoint) {
    if (!isRecord(data) || typeof data.id !== 'number') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7({ endpoint, message: 'GitHub answered without a comment id', transient: true });
    }
    const user = isRecord(data.user) && typeof data.user.login === 'string' ? { login: data.user.login, type: typeof data.user.type === 'string' ? data.user.type : undefined } : null;
    return {
        id: data.id,
        body: typeof data.body === 'string' ? data.body : '',
        user,
        html_url: typeof data.html_url === 'string' ? data.html_url : ''
    };
}
function asIssue(data, endpoint) {
    if (!isRecord(data) || typeof data.number !== 'number') {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7({ endpoint, message: 'GitHub answered without an issue number', transient: true });
    }
    const user = isRecord(data.user) && typeof data.user.login === 'string' ? { login: data.user.login, type: typeof data.user.type === 'string' ? data.user.type : undefined } : null;
    const issue = {
        number: data.number,
        title: typeof data.title === 'string' ? data.title : '',
        body: typeof data.body === 'string' ? data.body : null,
        state: typeof data.state === 'string' ? data.state : 'open',
        html_url: typeof data.html_url === 'string' ? data.html_url : '',
        user
    };
    if (data.pull_request !== undefined && data.pull_request !== null)
        issue.pull_request = data.pull_request;
    return issue;
}
function asList(data, endpoint, one) {
    if (!Array.isArray(data))
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7({ endpoint, message: 'GitHub answered with something other than a list', transient: true });
    return data.map((item) => one(item, endpoint));
}
/**
 * An IssuesApi over any Octokit-like `request` function. `createIssuesApi`
 * passes the real client's; tests may pass their own.
 */
function issuesApiOver(request, deps) {
    const timeoutMs = deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    /** One call: its own timeout per attempt, errors converted, the whole under the retry policy. */
    async function call(method, path, route, params, read, findExisting) {
        const endpoint = `${method} ${path}`;
        let last;
        return (0,_retry_policy_js__WEBPACK_IMPORTED_MODULE_1__/* .withRetry */ .bD)(async (attempt) => {
            if (attempt > 1 && findExisting && last?.ambiguous) {
                const existing = await findExisting();
                if (existing !== null) {
                    deps.log.info(`${endpoint}: the earlier attempt had taken effect; using what it created.`);
                    return existing;
                }
            }
            const timeout = AbortSignal.timeout(timeoutMs);
            const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
            try {
                const res = await request(route, { ...params, request: { signal } });
                return read(res, endpoint);
            }
            catch (err) {
                if (deps.signal?.aborted)
                    throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .AbortedError */ .oM();
                last = toServiceError(err, endpoint, deps.clock.now(), timeout.aborted);
                throw last;
            }
        }, {
            clock: deps.clock,
            deadline: deps.deadline,
            signal: deps.signal,
            random: deps.random,
            policy: deps.policy,
            onRetry: ({ attempt, delayMs, error }) => deps.log.info(`GitHub: ${error.describe()}; retrying (attempt ${attempt + 1}) in ${(delayMs / 1000).toFixed(1)} s`)
        });
    }
    const repoPath = (r) => `/repos/${encodeURIComponent(r.owner)}/${encodeURIComponent(r.repo)}`;
    return {
        async authenticatedLogin() {
            try {
                return await call('GET', '/user', 'GET /user', {}, (res) => {
                    const d = res.data;
                    return isRecord(d) && typeof d.login === 'string' ? d.login : null;
                });
            }
            catch (err) {
                if (err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7 && (err.status === 403 || err.status === 401 || err.status === 404))
                    return null;
                throw err;
            }
        },
        listComments(r, issueNumber, page) {
            return call('GET', `${repoPath(r)}/issues/${issueNumber}/comments`, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: r.owner, repo: r.repo, issue_number: issueNumber, per_page: PER_PAGE, page }, (res, endpoint) => ({ items: asList(res.data, endpoint, asComment), hasNext: hasNextLink(header(res.headers, 'link')) }));
        },
        createComment(r, issueNumber, body, findExisting) {
            return call('POST', `${repoPath(r)}/issues/${issueNumber}/comments`, 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: r.owner, repo: r.repo, issue_number: issueNumber, body }, (res, endpoint) => asComment(res.data, endpoint), findExisting);
        },
        updateComment(r, commentId, body) {
            return call('PATCH', `${repoPath(r)}/issues/comments/${commentId}`, 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { owner: r.owner, repo: r.repo, comment_id: commentId, body }, (res, endpoint) => asComment(res.data, endpoint));
        },
        listOpenIssues(r, page) {
            return call('GET', `${repoPath(r)}/issues`, 'GET /repos/{owner}/{repo}/issues', { owner: r.owner, repo: r.repo, state: 'open', per_page: PER_PAGE, page }, (res, endpoint) => ({ items: asList(res.data, endpoint, asIssue), hasNext: hasNextLink(header(res.headers, 'link')) }));
        },
        createIssue(r, fields, findExisting) {
            return call('POST', `${repoPath(r)}/issues`, 'POST /repos/{owner}/{repo}/issues', { owner: r.owner, repo: r.repo, title: fields.title, body: fields.body }, (res, endpoint) => asIssue(res.data, endpoint), findExisting);
        },
        updateIssue(r, issueNumber, fields) {
            return call('PATCH', `${repoPath(r)}/issues/${issueNumber}`, 'PATCH /repos/{owner}/{repo}/issues/{issue_number}', { owner: r.owner, repo: r.repo, issue_number: issueNumber, ...fields }, (res, endpoint) => asIssue(res.data, endpoint));
        }
    };
}
/**
 * The real client: @actions/github's getOctokit, loaded on first use, with
 * its base URL from `apiUrl` and its log routed to ours.
 */
async function createIssuesApi(deps) {
    const { getOctokit } = await __webpack_require__.e(/* import() */ 413).then(__webpack_require__.bind(__webpack_require__, 2413));
    const octokit = getOctokit(deps.token, {
        baseUrl: deps.apiUrl.replace(/\/+$/, ''),
        log: {
            debug: (m) => deps.log.debug(m),
            info: (m) => deps.log.debug(m),
            warn: (m) => deps.log.warning(m),
            error: (m) => deps.log.debug(m)
        },
        headers: { 'x-github-api-version': '2022-11-28' }
    });
    const request = octokit.request;
    return issuesApiOver(request, deps);
}
/**
 * Explain a failed GitHub write for a warning. `specific` handles what depends
 * on the write (403, 404, 410...); the rest is shared: rate limits that held,
 * 401, other service failures, and anything unexpected.
 */
function explainGitHubFailure(err, head, specific) {
    if (!(err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7)) {
        const message = err instanceof Error ? err.message : String(err);
        return { warning: `${head}: unexpected error: ${message}`, reason: 'unexpected error' };
    }
    const said = err.describe();
    if (err.code === 'rate_limited' || err.code === 'secondary_rate_limit') {
        return { warning: `${head}: GitHub's rate limit held after retries (${said}).`, reason: 'rate limited' };
    }
    const own = specific(err, said);
    if (own)
        return own;
    if (err.status === 401) {
        return {
            warning: `${head}: GitHub answered 401, the token was refused (${said}). Fix: leave github_token at its default (\${{ github.token }}) or pass a valid token.`,
            reason: 'unauthorized (401)'
        };
    }
    return { warning: `${head}: ${said}`, reason: err.status !== undefined ? `HTTP ${err.status}` : (err.code ?? 'network error') };
}


/***/ }),

/***/ 7648:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   LW: () => (/* binding */ ownedBy),
/* harmony export */   Pe: () => (/* binding */ withMarker),
/* harmony export */   Y0: () => (/* binding */ MAX_PAGES),
/* harmony export */   Z_: () => (/* binding */ ownLoginOnce),
/* harmony export */   postStickyComment: () => (/* binding */ postStickyComment),
/* harmony export */   xY: () => (/* binding */ hasMarker)
/* harmony export */ });
/* unused harmony exports isBotUser, findStickyComment, explainCommentFailure */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3916);
/* harmony import */ var _octokit_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6702);
/**
 * The sticky PR comment: one per model_id, found by a hidden marker in its
 * body, edited in place on the next run (`update`), or a new one per run
 * (`new`), or none (`off`).
 *
 * Writing the comment never changes the gate's result: a comment that cannot
 * be written (403 on a fork PR's read-only token, missing
 * `pull-requests: write`, 404, anything after retries) is a warning that says
 * why and how to fix it, and the outcome is `skipped`.
 */


/** Pages read at most when looking for the marker (100 per page). */
const MAX_PAGES = 100;
/** Whether an author looks like an app's bot user (GITHUB_TOKEN writes as `github-actions[bot]`). */
function isBotUser(user) {
    if (!user)
        return false;
    return user.type === 'Bot' || user.login.endsWith('[bot]');
}
/**
 * Whether an item holding the marker was written by us: by the token's own
 * login when GitHub told it, else by a bot user. A person quoting the marker
 * in their own comment or issue cannot make the action edit it.
 */
function ownedBy(user, ownLogin) {
    if (!user)
        return false;
    return ownLogin !== null ? user.login === ownLogin : isBotUser(user);
}
/** The body with the marker in it (prepended when the renderer did not put it there). */
function withMarker(body, marker) {
    return hasMarker(body, marker) ? body : `${marker}\n${body}`;
}
/**
 * Whether a body is ours for this marker: the marker opens it. Anchored, so a
 * finding that quotes another model's marker inside our comment cannot make
 * that comment look like the other model's.
 */
function hasMarker(body, marker) {
    return (body ?? '').trimStart().startsWith(marker);
}
/**
 * A memo of the token's login: GET /user is asked at most once, and only when
 * some item holds the marker.
 */
function ownLoginOnce(api) {
    let cached;
    return () => (cached ??= api.authenticatedLogin().catch(() => null));
}
/** The first comment of ours holding the marker, searched through every page. */
async function findStickyComment(api, target, marker, ownLogin, log) {
    for (let page = 1; page <= MAX_PAGES; page++) {
        const { items, hasNext } = await api.listComments(target, target.number, page);
        for (const comment of items) {
            if (!hasMarker(comment.body, marker))
                continue;
            if (ownedBy(comment.user, await ownLogin()))
                return comment;
            log.debug(`Comment ${comment.id} holds the marker but was not written by this action's token; left alone.`);
        }
        if (!hasNext || items.length === 0)
            return null;
    }
    log.debug(`No sticky comment found in the first ${MAX_PAGES} pages of comments; a new one is added.`);
    return null;
}
const FORK_HINT = 'On pull requests from forks the GITHUB_TOKEN is read-only whatever `permissions:` says: accept the job summary alone there, ' +
    'or use `pull_request_target` with care (it runs with a write token and secrets: never check out or run the fork\'s code in that job).';
/** The warning line for a comment that could not be read or written, and the short reason for the outcome. */
function explainCommentFailure(err, target) {
    const where = `${target.owner}/${target.repo}#${target.number}`;
    const head = `Could not write the PR comment on ${where} (the gate's result is unchanged)`;
    return (0,_octokit_js__WEBPACK_IMPORTED_MODULE_1__/* .explainGitHubFailure */ .d5)(err, head, (e, said) => {
        if (e.status === 403) {
            return {
                warning: `${head}: GitHub answered 403, the token may not write to pull requests (${said}). ` +
                    'Fix: give the job `permissions: pull-requests: write`. ' +
                    FORK_HINT,
                reason: 'forbidden (403): the token cannot write pull request comments'
            };
        }
        if (e.status === 404) {
            return {
                warning: `${head}: GitHub answered 404, the pull request is not visible to the token (${said}). ` +
                    'Fix: give the job `permissions: pull-requests: write` (a private repository hides what the token may not read), and check GITHUB_REPOSITORY and github_token. ' +
                    FORK_HINT,
                reason: 'not found (404): the token cannot see the pull request'
            };
        }
        return null;
    });
}
async function postStickyComment(api, target, body, marker, mode, log) {
    if (mode === 'off')
        return { action: 'skipped', url: null, reason: 'comment is off' };
    const text = withMarker(body, marker);
    const ref = { owner: target.owner, repo: target.repo, number: target.number };
    try {
        if (mode === 'new') {
            const created = await api.createComment(ref, ref.number, text);
            return { action: 'created', url: created.html_url };
        }
        const ownLogin = ownLoginOnce(api);
        const existing = await findStickyComment(api, ref, marker, ownLogin, log);
        if (existing) {
            const updated = await api.updateComment(ref, existing.id, text);
            return { action: 'updated', url: updated.html_url || existing.html_url };
        }
        // A create whose answer was lost may have taken effect: look again before repeating it.
        const created = await api.createComment(ref, ref.number, text, () => findStickyComment(api, ref, marker, ownLogin, log));
        return { action: 'created', url: created.html_url };
    }
    catch (err) {
        if (err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .AbortedError */ .oM)
            throw err;
        const { warning, reason } = explainCommentFailure(err, ref);
        log.warning(warning);
        return { action: 'skipped', url: null, reason };
    }
}


/***/ }),

/***/ 3812:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   syncTrackingIssue: () => (/* binding */ syncTrackingIssue)
/* harmony export */ });
/* unused harmony exports findTrackingIssue, explainIssueFailure */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3916);
/* harmony import */ var _octokit_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6702);
/* harmony import */ var _sticky_comment_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7648);
/**
 * The tracking issue of events without a pull request: one open issue per
 * model_id, found by a hidden marker in its body. A failing (or incomplete)
 * run creates it or updates it with the latest report; a passing run closes
 * it with a comment. Needs `issues: write`; without it a warning says so and
 * the outcome is `skipped`. Never changes the gate's result.
 */



/** The first open issue of ours (not a pull request) holding the marker, searched through every page. */
async function findTrackingIssue(api, repo, marker, ownLogin, log) {
    for (let page = 1; page <= _sticky_comment_js__WEBPACK_IMPORTED_MODULE_2__/* .MAX_PAGES */ .Y0; page++) {
        const { items, hasNext } = await api.listOpenIssues(repo, page);
        for (const issue of items) {
            if (issue.pull_request !== undefined || issue.state !== 'open')
                continue;
            if (!(0,_sticky_comment_js__WEBPACK_IMPORTED_MODULE_2__/* .hasMarker */ .xY)(issue.body, marker))
                continue;
            if ((0,_sticky_comment_js__WEBPACK_IMPORTED_MODULE_2__/* .ownedBy */ .LW)(issue.user, await ownLogin()))
                return issue;
            log.debug(`Issue #${issue.number} holds the marker but was not opened by this action's token; left alone.`);
        }
        if (!hasNext || items.length === 0)
            return null;
    }
    log.debug(`No tracking issue found in the first ${_sticky_comment_js__WEBPACK_IMPORTED_MODULE_2__/* .MAX_PAGES */ .Y0} pages of open issues.`);
    return null;
}
function explainIssueFailure(err, repo) {
    const head = `Could not keep the tracking issue in ${repo.owner}/${repo.repo} (the gate's result is unchanged)`;
    return (0,_octokit_js__WEBPACK_IMPORTED_MODULE_1__/* .explainGitHubFailure */ .d5)(err, head, (e, said) => {
        if (e.status === 403 || e.status === 404) {
            return {
                warning: `${head}: GitHub answered ${e.status}, the token may not write issues (${said}). ` +
                    'Fix: give the job `permissions: issues: write`, or set the input `issue: off`.',
                reason: `${e.status === 403 ? 'forbidden (403)' : 'not found (404)'}: the token needs issues: write`
            };
        }
        if (e.status === 410) {
            return {
                warning: `${head}: issues are disabled in this repository (${said}). Fix: enable Issues in the repository settings, or set the input \`issue: off\`.`,
                reason: 'issues are disabled (410)'
            };
        }
        return null;
    });
}
async function syncTrackingIssue(api, repo, args, log) {
    const ref = { owner: repo.owner, repo: repo.repo };
    const ownLogin = (0,_sticky_comment_js__WEBPACK_IMPORTED_MODULE_2__/* .ownLoginOnce */ .Z_)(api);
    try {
        const open = await findTrackingIssue(api, ref, args.marker, ownLogin, log);
        if (args.failing) {
            const body = (0,_sticky_comment_js__WEBPACK_IMPORTED_MODULE_2__/* .withMarker */ .Pe)(args.body, args.marker);
            if (open) {
                const updated = await api.updateIssue(ref, open.number, { title: args.title, body });
                return { action: 'updated', url: updated.html_url || open.html_url };
            }
            // A create whose answer was lost may have taken effect: look again before repeating it.
            const created = await api.createIssue(ref, { title: args.title, body }, () => findTrackingIssue(api, ref, args.marker, ownLogin, log));
            return { action: 'created', url: created.html_url };
        }
        if (!open)
            return { action: 'none', url: null };
        await api.createComment(ref, open.number, args.body);
        const closed = await api.updateIssue(ref, open.number, { state: 'closed', state_reason: 'completed' });
        return { action: 'closed', url: closed.html_url || open.html_url };
    }
    catch (err) {
        if (err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .AbortedError */ .oM)
            throw err;
        const { warning, reason } = explainIssueFailure(err, ref);
        log.warning(warning);
        return { action: 'skipped', url: null, reason };
    }
}


/***/ })

};

//# sourceMappingURL=812.index.js.map