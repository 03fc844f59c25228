export const id = 648;
export const ids = [648];
export const modules = {

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
    if (err instanceof _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ServiceError */ ._7) {
        const said = err.describe();
        if (err.code === 'rate_limited' || err.code === 'secondary_rate_limit') {
            return { warning: `${head}: GitHub's rate limit held after retries (${said}).`, reason: 'rate limited' };
        }
        if (err.status === 403) {
            return {
                warning: `${head}: GitHub answered 403, the token may not write to pull requests (${said}). ` +
                    'Fix: give the job `permissions: pull-requests: write`. ' +
                    FORK_HINT,
                reason: 'forbidden (403): the token cannot write pull request comments'
            };
        }
        if (err.status === 404) {
            return {
                warning: `${head}: GitHub answered 404, the pull request is not visible to the token (${said}). ` +
                    'Fix: give the job `permissions: pull-requests: write` (a private repository hides what the token may not read), and check GITHUB_REPOSITORY and github_token. ' +
                    FORK_HINT,
                reason: 'not found (404): the token cannot see the pull request'
            };
        }
        if (err.status === 401) {
            return {
                warning: `${head}: GitHub answered 401, the token was refused (${said}). Fix: leave github_token at its default (\${{ github.token }}) or pass a valid token.`,
                reason: 'unauthorized (401)'
            };
        }
        return { warning: `${head}: ${said}`, reason: err.status !== undefined ? `HTTP ${err.status}` : (err.code ?? 'network error') };
    }
    const message = err instanceof Error ? err.message : String(err);
    return { warning: `${head}: unexpected error: ${message}`, reason: 'unexpected error' };
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


/***/ })

};

//# sourceMappingURL=648.index.js.map