export const id = 702;
export const ids = [702];
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


/***/ })

};

//# sourceMappingURL=702.index.js.map