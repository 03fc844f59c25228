export const id = 956;
export const ids = [956];
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

/***/ 956:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  runMain: () => (/* binding */ runMain)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/clock.ts
var src_clock = __webpack_require__(9373);
// EXTERNAL MODULE: ./src/contract.ts + 19 modules
var contract = __webpack_require__(7869);
;// CONCATENATED MODULE: ./src/markdown-safe.ts
/**
 * Untrusted text (from the service or the agent under test) made safe for
 * GitHub-flavoured markdown: the PR comment and the job summary.
 *
 * Strategy:
 * - Every untrusted value is shown as *code*: an inline code span, a fenced code
 *   block, or `<code>` inside a `<summary>`. GitHub renders nothing inside code:
 *   no HTML, no markdown, no links, no images, and its post-filters (@mentions,
 *   team mentions, #issue references, commit links, emoji) skip code elements.
 *   Fences are longer than any backtick run in the text, so the text cannot
 *   close them; inline text has no line breaks, so it cannot leave its paragraph
 *   or table row; table cells escape `|` (the GFM way, `\|`, also inside code).
 * - The few free-text lines the gate writes that may quote untrusted parts (the
 *   reason, notes) go through `proseText`: HTML-escaped, markdown punctuation
 *   backslash-escaped, `@` and `#<digit>` replaced by full-width forms (an entity
 *   or a backslash would still render as a working mention), URLs defanged.
 * - Before any of that, `sanitizeText` normalises line breaks and replaces
 *   control, bidi, zero-width, tag and other invisible characters (and lone
 *   surrogates) by U+FFFD, visibly. Everything is clamped in length first, so a
 *   megabyte reply costs no more than its clamp.
 */
/** Line breaks of every kind, normalised to \n. */
const LINE_BREAKS = /\r\n|[\r\u0085\u2028\u2029\u000B\u000C]/g;
/**
 * Characters that never reach the output: C0/C1 controls (but \n and \t, handled
 * apart), soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul
 * fillers, Khmer invisible vowels, Mongolian selectors, zero-width and bidi
 * controls, invisible operators, BOM, interlinear annotations, non-characters,
 * lone surrogates, Unicode tag characters and supplementary variation selectors
 * (both used to smuggle invisible text), musical formatting controls.
 */
const UNSAFE_CHARS = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\uFFFE\uFFFF\uD800-\uDFFF\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u{1D173}-\u{1D17A}]+/gu;
/** Runs of more than four combining marks ("zalgo" text) are cut to four. */
const COMBINING_PILE = /(\p{M}{4})\p{M}+/gu;
/** The visible stand-in for characters that were removed. */
const REPLACEMENT_CHAR = '\uFFFD';
/** Used by tests: a character the output must never contain. */
const FORBIDDEN_OUTPUT_CHARS = new RegExp(UNSAFE_CHARS.source.replace(/\+$/, ''), 'u');
/**
 * Normalises line breaks and replaces unsafe characters (a run of them by one
 * U+FFFD). `multiline` keeps \n (tabs become four spaces); otherwise every line
 * break becomes a space (tabs one space).
 */
function sanitizeText(text, multiline) {
    let s = text.replace(LINE_BREAKS, '\n');
    s = s.replace(/\t/g, multiline ? '    ' : ' ');
    s = s.replace(UNSAFE_CHARS, REPLACEMENT_CHAR);
    s = s.replace(COMBINING_PILE, '$1');
    if (!multiline)
        s = s.replace(/\n+/g, ' ');
    return s;
}
/** At most `max` code units, never splitting a surrogate pair. */
function clampText(text, max) {
    if (text.length <= max)
        return { text, cut: 0 };
    let end = Math.max(0, Math.floor(max));
    if (end > 0) {
        const c = text.charCodeAt(end - 1);
        if (c >= 0xd800 && c <= 0xdbff)
            end -= 1;
    }
    return { text: text.slice(0, end), cut: text.length - end };
}
/** Length of the longest run of `ch` in `text`. */
function longestRun(text, ch) {
    let best = 0;
    let cur = 0;
    for (let i = 0; i < text.length; i++) {
        if (text[i] === ch) {
            cur += 1;
            if (cur > best)
                best = cur;
        }
        else {
            cur = 0;
        }
    }
    return best;
}
/** "1,234" */
function formatCount(n) {
    if (!Number.isFinite(n))
        return '?';
    return Math.trunc(n).toLocaleString('en-US');
}
function cutNote(cut) {
    return cut > 0 ? ` …(+${formatCount(cut)} characters)` : '';
}
/**
 * An inline code span holding `text` literally (after sanitising). Empty text
 * becomes an italic "(empty)". A clamped text is followed by a trusted note of
 * how much was cut.
 */
function codeSpan(text, opts = {}) {
    const { text: clamped, cut } = clampText(text, opts.max ?? 200);
    let s = sanitizeText(clamped, false);
    if (s.length === 0)
        return cut > 0 ? `*(blank)*${cutNote(cut)}` : '*(empty)*';
    if (opts.table)
        s = s.replace(/\|/g, '\\|');
    const fence = '`'.repeat(longestRun(s, '`') + 1);
    // CommonMark strips one space at each end when both ends are spaces (unless all
    // are): pad then, and when the text touches the fence with a backtick.
    const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ') && s.trim() !== '') ? ' ' : '';
    return `${fence}${pad}${s}${pad}${fence}${cutNote(cut)}`;
}
/**
 * A fenced code block holding `text` literally (after sanitising), with a
 * backtick fence longer than any backtick run inside (at least three), so no
 * line of the text can close it. Must be placed at the top level of the
 * document (not in a list or blockquote). Ends with its closing fence; a
 * trusted note follows when something was cut.
 */
function codeBlock(text, opts) {
    const { text: clamped, cut } = clampText(text, opts.maxChars);
    const lines = sanitizeText(clamped, true).split('\n');
    const maxLines = opts.maxLines ?? Number.POSITIVE_INFINITY;
    let linesCut = 0;
    if (lines.length > maxLines) {
        linesCut = lines.length - maxLines;
        lines.length = maxLines;
    }
    let charsCutInLines = 0;
    for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (line.length > opts.maxLineChars) {
            const c = clampText(line, opts.maxLineChars);
            charsCutInLines += c.cut;
            lines[i] = `${c.text} …`;
        }
    }
    const body = lines.join('\n');
    const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
    const notes = [];
    const count = (n, one) => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`;
    if (cut > 0)
        notes.push(count(cut, 'more character'));
    if (linesCut > 0)
        notes.push(count(linesCut, 'more line'));
    if (charsCutInLines > 0)
        notes.push(`${count(charsCutInLines, 'character')} of long lines`);
    const tail = notes.length > 0 ? `\n\n*Cut: ${notes.join(', ')}.*` : '';
    return `${fence}text\n${body}\n${fence}${tail}`;
}
const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escapes text for HTML element content or attribute values. */
function escapeHtml(text) {
    return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}
/**
 * Untrusted text inside raw HTML (a `<summary>` line): one line, HTML-escaped,
 * wrapped in `<code>` so GitHub's mention and reference filters skip it.
 */
function htmlCode(text, max = 120) {
    const { text: clamped, cut } = clampText(text, max);
    const s = sanitizeText(clamped, false);
    if (s.length === 0)
        return '<i>(empty)</i>';
    // Markdown punctuation as numeric entities too: nothing in it can form a link,
    // image, emphasis or escape, however the line is read.
    const inert = escapeHtml(s).replace(/[[\]()\\*_~`!:]/g, (c) => `&#${c.charCodeAt(0)};`);
    return `<code>${inert}</code>${cut > 0 ? ' …' : ''}`;
}
const PROSE_SPECIAL = /[\\`*_{}[\]()#+\-=!|~<>&$^@]|(?<=[0-9])\./g;
/**
 * Free text that may quote untrusted parts, for a paragraph or list item: one
 * line; HTML-escaped; ASCII markdown punctuation backslash-escaped; `@` as the
 * full-width `＠`, `#` before a digit as `＃` and `GH-` before a digit as `GH‑`
 * (GitHub links mentions and issue references in the rendered text, where an
 * entity or a backslash is already gone); `scheme://` and `www.` defanged to `scheme[:]//` and `www[.]`; `$`
 * escaped (GitHub math). Block markers (`#`, `-`, `+`, `=`, `1.`) are escaped
 * too, so the text may start a list item.
 */
function proseText(text, max = 1000) {
    const { text: clamped, cut } = clampText(text, max);
    let s = sanitizeText(clamped, false);
    s = s.replace(/([A-Za-z][A-Za-z0-9+.-]*):\/\//g, '$1[:]//').replace(/www\./gi, (m) => `${m.slice(0, 3)}[.]`);
    s = s.replace(/#(?=[0-9])/g, '\uFF03').replace(/\b(GH)-(?=[0-9])/gi, '$1\u2011');
    s = s.replace(PROSE_SPECIAL, (c) => {
        switch (c) {
            case '&':
                return '&amp;';
            case '<':
                return '&lt;';
            case '>':
                return '&gt;';
            case '@':
                return '\uFF20';
            default:
                return `\\${c}`;
        }
    });
    return s + (cut > 0 ? ' …' : '');
}
/**
 * A value that should be one of `allowed` (an enum of the contract): shown
 * plainly when it is, as a code span otherwise (the type says enum, the wire
 * may still have said anything).
 */
function enumText(value, allowed) {
    if (value === null || value === undefined)
        return '–';
    return allowed.includes(value) ? value : codeSpan(value, { max: 40 });
}
/** Same as `enumText`, for a table cell. */
function enumCell(value, allowed) {
    if (value === null || value === undefined)
        return '–';
    return allowed.includes(value) ? value : codeSpan(value, { max: 40, table: true });
}
/** A link the gate builds itself (e.g. the workflow run): only plain http(s) URLs, else nothing. */
function trustedLink(label, url) {
    if (!url || url.length > 2000 || !/^https?:\/\/[^\s<>()[\]`"'\\]+$/.test(url))
        return null;
    return `[${label.replace(/[[\]\\]/g, '')}](${url})`;
}

;// CONCATENATED MODULE: ./src/redact-headers.ts
/**
 * Credentials out of every output: replay steps can carry the target's own
 * credentials (headers, URL user-info, query parameters), and the gate knows
 * secrets (the api_key) that must never be printed.
 */
/** What a withheld value is replaced by. */
const REDACTED_VALUE = '[redacted]';
/** Header names that are credentials whatever they look like. */
const CREDENTIAL_HEADER_NAMES = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
/** Parts of a name that mark it as holding a credential. */
const CREDENTIAL_NAME_PART = /key|token|secret|passw|pwd|auth|session|cookie|credential|signature|csrf|xsrf|jwt|bearer|private/i;
/** Values that are credentials whatever header carries them. */
const CREDENTIAL_VALUE = /^\s*(?:bearer|basic|digest|negotiate|ntlm|token|apikey|api-key)\s+\S|^\s*eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\./i;
/** True for header (or parameter) names that look like they hold a credential. */
function isCredentialName(name) {
    const n = name.trim().toLowerCase();
    return CREDENTIAL_HEADER_NAMES.has(n) || CREDENTIAL_NAME_PART.test(n);
}
/** True for values that carry an authorization scheme or a JWT. */
function looksLikeCredentialValue(value) {
    return CREDENTIAL_VALUE.test(value);
}
/**
 * A header value as text. The description says only that headers is an
 * object, so a value may be a string, a number, a boolean, null or an array of
 * those (a repeated header): arrays are joined with ", ", null is "null".
 */
function headerValueText(value) {
    if (typeof value === 'string')
        return value;
    if (Array.isArray(value))
        return value.map(headerValueText).join(', ');
    if (value === null || value === undefined)
        return 'null';
    if (typeof value === 'object') {
        try {
            return JSON.stringify(value);
        }
        catch {
            return '[object]';
        }
    }
    return String(value);
}
/**
 * A copy of `headers`, every value as text, with every credential-looking one
 * replaced by `[redacted]`: a credential-like name is redacted whatever the
 * type of its value; any other value when its text looks like a credential.
 */
function redactHeaders(headers) {
    const out = {};
    for (const [name, value] of Object.entries(headers)) {
        if (isCredentialName(name)) {
            out[name] = REDACTED_VALUE;
            continue;
        }
        const v = headerValueText(value);
        // Each item of a repeated header is checked on its own (the patterns anchor at the start).
        const items = Array.isArray(value) ? value : [value];
        const secret = looksLikeCredentialValue(v) || items.some((item) => looksLikeCredentialValue(headerValueText(item)));
        out[name] = secret ? REDACTED_VALUE : v;
    }
    return out;
}
function decodeName(name) {
    try {
        return decodeURIComponent(name.replace(/\+/g, ' '));
    }
    catch {
        return name;
    }
}
/**
 * A URL with its user-info and credential-looking query or fragment parameters
 * redacted. Works on the text (a replay URL may not parse).
 */
function redactUrl(url) {
    return url
        .replace(/^(\s*[A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#@\s]*)@/, `$1${REDACTED_VALUE}@`)
        .replace(/([?&#;])([^=&#;\s]+)=([^&#;\s]*)/g, (whole, sep, name) => isCredentialName(decodeName(name)) ? `${sep}${name}=${REDACTED_VALUE}` : whole);
}
/** The forms a secret may take in the outputs: as is, and escaped inside a JSON string. */
function secretVariants(secrets) {
    const variants = new Set();
    for (const s of secrets) {
        if (typeof s !== 'string' || s.trim().length === 0)
            continue;
        variants.add(s);
        variants.add(JSON.stringify(s).slice(1, -1));
    }
    return [...variants].sort((a, b) => b.length - a.length);
}
/**
 * Every occurrence of every secret (and its JSON-escaped form) replaced by
 * `[redacted]`. Blank secrets are ignored. The last line of defence, applied to
 * whole outputs; `buildReport` applies it to every value first, since markdown
 * escaping could split a secret that holds punctuation.
 */
function scrubSecrets(text, secrets) {
    let out = text;
    for (const v of secretVariants(secrets)) {
        if (out.includes(v))
            out = out.split(v).join(REDACTED_VALUE);
    }
    return out;
}
/** A reusable scrubber for many values (memoised for long, often shared, strings). */
function makeScrubber(secrets) {
    const variants = secretVariants(secrets);
    if (variants.length === 0)
        return (text) => text;
    const memo = new Map();
    return (text) => {
        if (text.length >= 4096) {
            const hit = memo.get(text);
            if (hit !== undefined)
                return hit;
        }
        let out = text;
        for (const v of variants) {
            if (out.includes(v))
                out = out.split(v).join(REDACTED_VALUE);
        }
        if (text.length >= 4096)
            memo.set(text, out);
        return out;
    };
}

;// CONCATENATED MODULE: ./src/report.ts
/**
 * The report model: one pure function turns what the gate read and decided into
 * the data every rendering shows (PR comment, job summary, report.json,
 * annotations). Credentials are redacted here, once, so no rendering can show
 * them; the renderers only format and escape.
 */


const REPORT_SCHEMA_VERSION = 1;
/** Why findings are shown without their proof (the service's own words for it). */
const REDACTION_REASON = "the workspace's plan withholds the proof of findings";
function zeroCounts() {
    return { critical: 0, high: 0, medium: 0, low: 0 };
}
/** True for a finding whose proof the plan withholds. */
function isRedactedFinding(f) {
    return f.attacks.length === 0 && (f.description === contract/* REDACTED */.XF || f.expected_behavior === contract/* REDACTED */.XF);
}
const str = (v) => (typeof v === 'string' ? v : null);
const report_int = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
function dedupe(items) {
    return [...new Set(items)];
}
/** What the gate read and decided, as the input of buildReport (notes on how the run was reached first). */
function gateReportInput(outcome, context) {
    const { decision, run, results, triggered } = outcome;
    return {
        ...context,
        model: results.model,
        result: decision.result,
        reason: decision.reason,
        verdict: decision.verdict,
        verdictComputed: decision.verdictComputed,
        run,
        runListItem: results.runListItem,
        coverage: results.coverage,
        findings: results.findings,
        elapsedMs: outcome.elapsedMs,
        notes: [
            ...(triggered.recovered ? ['The answer to the trigger was lost; the run was found in the run list (it appeared after our request).'] : []),
            ...(triggered.waitedFor.length > 0 ? [`Waited for run(s) ${triggered.waitedFor.join(', ')} of this model to end before triggering.`] : []),
            ...decision.notes,
            ...results.notes
        ]
    };
}
function buildReport(input) {
    const scrub = makeScrubber(input.secrets ?? []);
    const s = (v) => scrub(v);
    const sn = (v) => {
        const t = str(v);
        return t === null ? null : scrub(t);
    };
    const threshold = input.minSeverity;
    const toStep = (raw) => {
        // Values may be strings, numbers, booleans, null or arrays of those: redactHeaders makes them text.
        const headers = raw.headers && typeof raw.headers === 'object' && !Array.isArray(raw.headers) ? raw.headers : null;
        let redacted = null;
        if (headers) {
            redacted = {};
            for (const [k, v] of Object.entries(redactHeaders(headers)))
                redacted[s(k)] = s(v);
        }
        const url = sn(raw.url);
        return {
            step: s(str(raw.step) ?? ''),
            message: sn(raw.message),
            response: sn(raw.response),
            sessionId: sn(raw.session_id),
            method: sn(raw.method),
            url: url === null ? null : redactUrl(url),
            headers: redacted,
            body: sn(raw.body),
            responseStatus: report_int(raw.response_status),
            responseBody: sn(raw.response_body),
            target: sn(raw.target),
            assertion: sn(raw.assertion),
            expectedBehavior: sn(raw.expected_behavior),
            captureAs: sn(raw.capture_as)
        };
    };
    const toFinding = (f) => ({
        findingId: s(f.finding_id),
        severity: f.severity,
        category: s(f.category),
        lens: f.lens,
        // Any non-empty string (the complete set is not shown): service text, scrubbed like the rest.
        status: s(f.status),
        description: s(f.description),
        expectedBehavior: s(f.expected_behavior),
        createdAt: s(f.created_at),
        redacted: isRedactedFinding(f),
        atOrAbove: (0,contract/* atOrAbove */.kU)(f.severity, threshold),
        attacks: f.attacks.map((a) => ({
            attackId: s(a.attack_id),
            score: a.score,
            lastReplayStatus: s(a.last_replay_status),
            createdAt: s(a.created_at),
            lastReplayedAt: sn(a.last_replayed_at),
            source: a.source
                ? {
                    sourceType: s(a.source.source_type),
                    assessmentId: s(a.source.assessment_id),
                    attackIndex: a.source.attack_index,
                    date: s(a.source.date)
                }
                : null,
            steps: a.replay_script.map((st) => toStep(st))
        }))
    });
    // Findings: most severe first, open before the others, else in the service's order.
    const indexed = (input.findings ?? []).map((f, i) => ({ f: toFinding(f), i }));
    indexed.sort((a, b) => (0,contract/* severityRank */.qs)(a.f.severity) - (0,contract/* severityRank */.qs)(b.f.severity) ||
        Number(b.f.status === 'open') - Number(a.f.status === 'open') ||
        a.i - b.i);
    const findings = indexed.map((x) => x.f);
    const groups = [];
    for (const sev of contract/* SEVERITIES */.oC) {
        if (!(0,contract/* atOrAbove */.kU)(sev, threshold))
            continue;
        const inGroup = findings.filter((f) => f.severity === sev);
        if (inGroup.length > 0)
            groups.push({ severity: sev, findings: inGroup });
    }
    const below = findings.filter((f) => !f.atOrAbove);
    let counts = null;
    if (input.findings !== null) {
        const c = {
            total: findings.length,
            bySeverity: zeroCounts(),
            openBySeverity: zeroCounts(),
            atOrAbove: 0,
            openAtOrAbove: 0,
            belowThreshold: 0,
            belowBySeverity: zeroCounts(),
            redacted: 0,
            redactedAtOrAbove: 0
        };
        for (const f of findings) {
            c.bySeverity[f.severity] += 1;
            if (f.status === 'open')
                c.openBySeverity[f.severity] += 1;
            if (f.atOrAbove) {
                c.atOrAbove += 1;
                if (f.status === 'open')
                    c.openAtOrAbove += 1;
            }
            else {
                c.belowThreshold += 1;
                c.belowBySeverity[f.severity] += 1;
            }
            if (f.redacted) {
                c.redacted += 1;
                if (f.atOrAbove)
                    c.redactedAtOrAbove += 1;
            }
        }
        counts = c;
    }
    // Coverage: one row per planned category, then probed categories not planned.
    const run = input.run;
    const item = input.runListItem;
    const plannedRaw = run?.categories_planned ?? item?.categories_planned ?? null;
    const planned = plannedRaw ? dedupe(plannedRaw) : null;
    const completedRaw = run?.categories_completed ?? null;
    const completedSet = completedRaw ? new Set(completedRaw) : null;
    const coverageByCategory = new Map();
    for (const row of input.coverage?.categories ?? []) {
        if (!coverageByCategory.has(row.category))
            coverageByCategory.set(row.category, row);
    }
    const rowFor = (category, isPlanned) => {
        const cov = coverageByCategory.get(category);
        let state;
        if (completedSet === null)
            state = cov ? 'probed' : 'not reached';
        else if (completedSet.has(category))
            state = 'completed';
        else
            state = cov && cov.attacks_blocked + cov.attacks_succeeded > 0 ? 'partial' : 'not reached';
        return {
            category: s(category),
            planned: isPlanned,
            state,
            blocked: cov ? cov.attacks_blocked : null,
            succeeded: cov ? cov.attacks_succeeded : null,
            owasp: cov ? s(cov.owasp) : null,
            atlas: cov ? s(cov.atlas) : null,
            worstSeverity: cov ? cov.worst_severity : null
        };
    };
    const coverageRows = [];
    const plannedSet = new Set(planned ?? []);
    for (const c of planned ?? [])
        coverageRows.push(rowFor(c, true));
    for (const c of coverageByCategory.keys())
        if (!plannedSet.has(c))
            coverageRows.push(rowFor(c, false));
    const plannedRows = coverageRows.filter((r) => r.planned);
    return {
        schemaVersion: REPORT_SCHEMA_VERSION,
        modelId: s(input.modelId),
        modelName: input.model ? s(input.model.name) : null,
        endpointHost: input.model ? s(input.model.endpoint_host) : null,
        minSeverity: threshold,
        result: input.result,
        reason: s(input.reason),
        verdict: input.verdict,
        verdictComputed: input.verdictComputed,
        runId: sn(run?.run_id ?? item?.run_id ?? null),
        runStatus: sn(run?.status ?? item?.status ?? null),
        startedAt: sn(run?.started_at ?? item?.started_at ?? null),
        completedAt: sn(run?.completed_at ?? item?.completed_at ?? null),
        categoriesPlanned: planned ? planned.map(s) : null,
        categoriesCompleted: completedRaw ? dedupe(completedRaw).map(s) : null,
        ingestIncomplete: item ? item.ingest_incomplete : null,
        elapsedMs: input.elapsedMs,
        coverageReadable: input.coverage !== null,
        coverageRows,
        coverageCompleted: plannedRows.filter((r) => r.state === 'completed').length,
        coverageNotReached: plannedRows.filter((r) => r.state === 'not reached').length,
        findingsReadable: input.findings !== null,
        findings,
        groups,
        below,
        counts,
        redactionReason: counts && counts.redacted > 0 ? REDACTION_REASON : null,
        notes: input.notes.map(s),
        runUrl: input.runUrl ?? null
    };
}
/** "3m 12s", "850 ms", "1h 02m". */
function formatElapsed(ms) {
    if (ms === null || !Number.isFinite(ms) || ms < 0)
        return null;
    if (ms < 1000)
        return `${Math.round(ms)} ms`;
    const total = Math.round(ms / 1000);
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const sec = total % 60;
    if (h > 0)
        return `${h}h ${String(m).padStart(2, '0')}m`;
    if (m > 0)
        return `${m}m ${String(sec).padStart(2, '0')}s`;
    return `${sec}s`;
}
/** "1 critical, 2 high" (zero counts left out; "none" when all are zero). */
function describeCounts(counts, only) {
    const parts = [];
    for (const sev of contract/* SEVERITIES */.oC) {
        if (only && !only(sev))
            continue;
        if (counts[sev] > 0)
            parts.push(`${counts[sev].toLocaleString('en-US')} ${sev}`);
    }
    return parts.length > 0 ? parts.join(', ') : 'none';
}

;// CONCATENATED MODULE: ./src/annotations.ts
/**
 * Annotations for the findings at or above the threshold, most severe first.
 * GitHub shows about ten per step, so past `max` the rest are summed up in one.
 * Texts are one line, without control, bidi or zero-width characters, clamped.
 */



function clean(text, max) {
    const c = clampText(text, max);
    return sanitizeText(c.text, false).trim() + (c.cut > 0 ? ' …' : '');
}
function severityText(s) {
    return contract/* SEVERITIES */.oC.includes(s) ? s : 'unknown';
}
function annotationFor(f, minSeverity) {
    const sev = severityText(f.severity);
    const title = clean(`${sev} finding: ${f.category} (${f.lens})`, 120);
    const parts = [`Security assessment finding ${clean(f.findingId, 80)}, status ${clean(f.status, 30)}, at or above ${minSeverity}.`];
    if (f.redacted) {
        parts.push("Proof withheld: the workspace's plan withholds the proof of findings.");
    }
    else {
        parts.push(`Description: ${clean(f.description, 500)}`);
        parts.push(`Expected behaviour: ${clean(f.expectedBehavior, 300)}`);
        if (f.attacks.length > 0)
            parts.push(`${f.attacks.length} ${f.attacks.length === 1 ? 'attack' : 'attacks'}; replay steps in the job summary and the JSON report.`);
    }
    // Open findings fail the gate (error); fixed or dismissed ones at the threshold do not (warning).
    return { level: f.status === 'open' ? 'error' : 'warning', title, message: parts.join(' ') };
}
/** One annotation per finding at or above the threshold; over `max`, `max - 1` of them and one for the rest. */
function buildAnnotations(report, max = 10) {
    const list = report.groups.flatMap((g) => g.findings);
    const limit = Math.max(1, Math.floor(max));
    if (list.length <= limit)
        return list.map((f) => annotationFor(f, report.minSeverity));
    const shown = list.slice(0, limit - 1).map((f) => annotationFor(f, report.minSeverity));
    const rest = list.slice(limit - 1);
    const counts = zeroCounts();
    let open = 0;
    for (const f of rest) {
        counts[f.severity] += 1;
        if (f.status === 'open')
            open += 1;
    }
    shown.push({
        level: open > 0 ? 'error' : 'warning',
        title: `${rest.length} more findings at or above ${report.minSeverity}`,
        message: `${rest.length} more findings at or above ${report.minSeverity} (${describeCounts(counts)}; ${open} open) are not annotated. See the job summary and the JSON report.`
    });
    return shown;
}

// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
;// CONCATENATED MODULE: ./src/collect-results.ts
/**
 * After the run ends: coverage, findings, the run's list item and the model
 * are fetched concurrently. Each one that cannot be read is null with a note
 * saying why; decide() then fails closed on what is missing.
 *
 * Coverage and findings answer 409 while the run is running. Right after the
 * status turned terminal, a service whose read side lags can still answer 409:
 * that answer is retried a few times with a short growing wait (1 s, 2 s, 4 s),
 * then given up on as unreadable (fail closed: never a pass).
 */


/** How many recent runs of the model are searched for this run's list item. */
const RUN_LIST_LIMIT = 20;
/** Waits before each retry of a 409 from coverage or findings after the run ended: about 7 s in all. */
const READ_LAG_RETRY_DELAYS_MS = [1_000, 2_000, 4_000];
async function settle(what, notes, p) {
    try {
        return await p;
    }
    catch (err) {
        if (!(err instanceof errors/* ServiceError */._7))
            throw err;
        notes.push(`${what} could not be read: ${err.describe()}`);
        return null;
    }
}
/**
 * `read`, retried while it answers 409 (the run still in progress, as the
 * read side sees it), after each of READ_LAG_RETRY_DELAYS_MS. The last 409
 * is thrown with what was retried.
 */
async function readLagging(read, opts) {
    const waited = [];
    for (;;) {
        try {
            return await read();
        }
        catch (err) {
            if (!(err instanceof errors/* ServiceError */._7) || err.status !== 409)
                throw err;
            const delay = READ_LAG_RETRY_DELAYS_MS[waited.length];
            if (delay === undefined) {
                const gaveUp = `still 409 after the run ended, retried ${waited.length} times over ${waited.reduce((a, b) => a + b, 0) / 1000} s`;
                err.hint = err.hint ? `${err.hint}; ${gaveUp}` : gaveUp;
                throw err;
            }
            opts.log?.info(`${err.endpoint}: HTTP 409${err.code ? ` ${err.code}` : ''} although the run has ended; retrying in ${delay / 1000} s.`);
            await opts.clock.sleep(delay, opts.signal);
            waited.push(delay);
        }
    }
}
async function collectResults(api, runId, modelId, options = {}) {
    const notes = [];
    const { signal, log } = options;
    const clock = options.clock ?? src_clock/* systemClock */.m;
    const opts = { signal };
    const lagging = { clock, signal, log };
    const [coverage, findingList, runList, modelList] = await Promise.all([
        settle('Coverage', notes, readLagging(() => api.getCoverage(runId, opts), lagging)),
        settle('Findings', notes, readLagging(() => api.listFindings(runId, {}, opts), lagging)),
        settle('The run list', notes, api.listRuns(modelId, { limit: RUN_LIST_LIMIT }, opts)),
        settle('The model list', notes, api.listModels(opts))
    ]);
    let findings = null;
    if (findingList) {
        if (findingList.count !== findingList.findings.length) {
            notes.push(`Findings could not be trusted: the service counted ${findingList.count} but returned ${findingList.findings.length}.`);
        }
        else {
            findings = findingList.findings;
        }
    }
    const runListItem = runList?.runs.find((r) => r.run_id === runId) ?? null;
    if (runList && !runListItem)
        notes.push(`Run ${runId} is not among the ${runList.runs.length} most recent runs of the model.`);
    const model = modelList?.models.find((m) => m.model_id === modelId) ?? null;
    // run_id is optional in the coverage body; when it is there it must name this run.
    if (coverage && coverage.run_id !== undefined && coverage.run_id !== null && coverage.run_id !== runId) {
        notes.push(`Coverage could not be trusted: it names run ${coverage.run_id}.`);
        return { coverage: null, findings, runListItem, model, notes };
    }
    return { coverage, findings, runListItem, model, notes };
}

;// CONCATENATED MODULE: ./src/decide.ts
/**
 * Deciding the gate's result: a pure function of what was read. Fail closed:
 * anything that cannot be trusted is `incomplete` or `error`, never `pass`.
 */

function countsAsOpen(f, rule) {
    return rule === 'open-only' ? f.status === 'open' : !(0,contract/* isClosedFindingStatus */.Q1)(f.status);
}
/**
 * The verdict computed locally when the service gave none (see API
 * assumptions): fail iff a finding at or above the threshold is open, where
 * any status other than fixed, dismissed and FIXED_VERIFIED counts as open
 * (an unknown status fails closed; decide() notes it).
 */
function computeVerdict(findings, minSeverity) {
    return findings.some((f) => (0,contract/* atOrAbove */.kU)(f.severity, minSeverity) && countsAsOpen(f, 'not-closed')) ? 'fail' : 'pass';
}
/** True when the findings hold a finding with the literal status open at or above the threshold. */
function holdsOpenAtOrAbove(findings, minSeverity) {
    return findings.some((f) => (0,contract/* atOrAbove */.kU)(f.severity, minSeverity) && countsAsOpen(f, 'open-only'));
}
/** "1 critical, 2 high" for the findings at or above the threshold that count as open. */
function describeOpen(findings, minSeverity, rule) {
    const parts = [];
    for (const s of contract/* SEVERITIES */.oC) {
        if (!(0,contract/* atOrAbove */.kU)(s, minSeverity))
            continue;
        const n = findings.filter((f) => countsAsOpen(f, rule) && f.severity === s).length;
        if (n > 0)
            parts.push(`${n} ${s}`);
    }
    return parts.join(', ');
}
/** A service string quoted for a reason or a note: JSON-escaped, clipped. */
function quote(text, max = 60) {
    return JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text);
}
/** Notes on findings at or above the threshold whose status this action does not know. */
function unknownStatusNotes(findings, minSeverity, rule) {
    const unknown = findings.filter((f) => (0,contract/* atOrAbove */.kU)(f.severity, minSeverity) && !(0,contract/* isKnownFindingStatus */.B5)(f.status));
    if (unknown.length === 0)
        return [];
    const shown = unknown.slice(0, 5).map((f) => `${quote(f.finding_id, 40)} (${quote(f.status, 40)})`);
    const more = unknown.length > shown.length ? ` and ${unknown.length - shown.length} more` : '';
    const what = `${plural(unknown.length, 'finding')} at or above ${minSeverity} ${unknown.length === 1 ? 'has' : 'have'} a status this action does not know: ${shown.join(', ')}${more}`;
    return rule === 'not-closed'
        ? [`${what}; counted as open (fail closed), since only fixed, dismissed and FIXED_VERIFIED close a finding.`]
        : [`${what}; the service's verdict stands for them.`];
}
/**
 * Coverage against the run status and the findings. The description: a
 * category the run never probed has no row, so a completed one has one; the
 * coverage reports the run's status as run_status. ASSUMPTION: a row's
 * worst_severity is the severity of a finding of that category.
 */
function coverageChecks(coverage, status, planned, completed, findings, minSeverity) {
    const out = { errors: [], gaps: [], notes: [] };
    const rows = new Set(coverage.categories.map((r) => r.category));
    const noRow = [...new Set(completed)].filter((c) => !rows.has(c));
    if (noRow.length > 0)
        out.gaps.push(`no coverage row for ${noRow.join(', ')}`);
    const covStatus = coverage.run_status;
    if (covStatus !== status) {
        if ((0,contract/* isKnownRunStatus */.tn)(covStatus)) {
            out.gaps.push(`the coverage reports run_status ${covStatus} while the run status is ${status}`);
            out.notes.push(`The run status (${status}) and the coverage (run_status ${covStatus}) disagree: the two reads do not describe the same run state, so the coverage may be partial.`);
        }
        else {
            out.notes.push(`The coverage reports run_status ${quote(covStatus, 40)}, a status this action does not know, while the run status is ${status}.`);
        }
    }
    if (findings !== null) {
        const plannedSet = new Set(planned);
        for (const row of coverage.categories) {
            const worst = row.worst_severity;
            if (worst === null || !(0,contract/* atOrAbove */.kU)(worst, minSeverity))
                continue;
            const held = findings.some((f) => f.category === row.category && (0,contract/* atOrAbove */.kU)(f.severity, minSeverity));
            if (held)
                continue;
            if (plannedSet.has(row.category)) {
                out.errors.push(`coverage reports a ${worst} finding in ${row.category} that the findings list does not hold; the result cannot be trusted`);
            }
            else {
                out.notes.push(`The coverage reports a ${worst} finding in ${row.category}, a category the run did not plan, that the findings list does not hold.`);
            }
        }
    }
    return out;
}
function plural(n, one, many = `${one}s`) {
    return `${n} ${n === 1 ? one : many}`;
}
function decide(input) {
    const { findings, minSeverity } = input;
    const planned = input.categoriesPlanned;
    const completed = new Set(input.categoriesCompleted);
    const missingCategories = planned.filter((c) => !completed.has(c));
    const atAbove = findings ? findings.filter((f) => (0,contract/* atOrAbove */.kU)(f.severity, minSeverity)) : null;
    const openAtAbove = atAbove ? atAbove.filter((f) => countsAsOpen(f, 'open-only')) : null;
    const base = {
        findingsAtOrAbove: atAbove ? atAbove.length : null,
        openAtOrAbove: openAtAbove ? openAtAbove.length : null,
        missingCategories
    };
    const reached = `${planned.length - missingCategories.length} of ${plural(planned.length, 'category', 'categories')} reached`;
    const readError = input.statusReadError ? `: ${input.statusReadError}` : '';
    if (input.status === null) {
        return { ...base, result: 'error', reason: `the run status could not be read${readError}`, verdict: null, verdictComputed: false, notes: [] };
    }
    // isTerminal is the one place that says which statuses end a run: running, and
    // any status the description does not name, have not ended (fail closed).
    if (!(0,contract/* isTerminal */.Hd)(input.status)) {
        const still = input.status === 'running' ? 'still running' : `still ${quote(input.status, 40)} (not a terminal status)`;
        const why = input.aborted
            ? `the step was cancelled while the run was ${still}`
            : input.timedOut
                ? `timeout_minutes ran out while the run was ${still}`
                : input.statusReadError
                    ? `the run status could no longer be read while the run was ${still}${readError}`
                    : input.status === 'running'
                        ? 'the run had not ended'
                        : `the run had not ended: its status is ${quote(input.status, 40)}, not a terminal status`;
        return { ...base, result: 'error', reason: `${why}; ${reached}`, verdict: null, verdictComputed: false, notes: [] };
    }
    const status = input.status;
    const notes = [];
    let verdict = input.verdict ?? null;
    let verdictComputed = false;
    let rule = 'open-only';
    if (verdict === null) {
        if (findings === null) {
            return {
                ...base,
                result: 'error',
                reason: 'the service gave no verdict and the findings could not be read, so the result cannot be trusted',
                verdict: null,
                verdictComputed: false,
                notes
            };
        }
        rule = 'not-closed';
        verdict = computeVerdict(findings, minSeverity);
        verdictComputed = true;
        notes.push(`The service gave no verdict; it was computed from the findings: fail if a finding at or above ${minSeverity} is not fixed, dismissed or FIXED_VERIFIED.`);
    }
    else if (verdict === 'pass' && findings !== null && holdsOpenAtOrAbove(findings, minSeverity)) {
        // Fail closed: the findings contradict the service's pass. Only the literal
        // status open counts here (see OpenRule): an unknown status is the service's call.
        verdict = 'fail';
        verdictComputed = true;
        notes.push(`The service's verdict was pass, but its findings hold open findings at or above ${minSeverity}; the gate fails closed.`);
    }
    if (findings !== null)
        notes.push(...unknownStatusNotes(findings, minSeverity, rule));
    const blocking = atAbove ? atAbove.filter((f) => countsAsOpen(f, rule)).length : null;
    const decided = { ...base, openAtOrAbove: blocking };
    // Coverage against the run and the findings (only when the caller gave it).
    const coverage = input.coverage;
    const coverageReadable = input.coverageReadable && coverage !== null;
    const check = coverage === undefined || coverage === null
        ? { errors: [], gaps: [], notes: [] }
        : coverageChecks(coverage, status, planned, input.categoriesCompleted, findings, minSeverity);
    notes.push(...check.notes);
    const tail = [];
    if (input.timedOut)
        tail.push('timeout_minutes ran out and the run was cancelled');
    if (input.aborted)
        tail.push('the step was cancelled and the run with it');
    if (input.statusReadError)
        tail.push(`the run status could no longer be read, so the run was cancelled${readError}`);
    /** The step stopped the run before it ended: whatever it found, the result was not reached. */
    const stopped = tail.length > 0;
    if (verdict === 'fail') {
        // A fail stands whatever else is wrong; the contradictions are still said.
        for (const e of [...check.errors, ...check.gaps])
            notes.push(`Also: ${e}.`);
        const detail = findings ? describeOpen(findings, minSeverity, rule) : '';
        const count = blocking !== null && blocking > 0
            ? `${plural(blocking, 'open finding')} at or above ${minSeverity}`
            : `the service's verdict is fail at ${minSeverity}`;
        const reason = detail ? `${count} (${detail})` : count;
        if (stopped) {
            // The run did not end on its own: the result is error (the step fails either way),
            // and what it found before it was stopped is said.
            return { ...decided, result: 'error', reason: [...tail, `${reason} in what it reached`].join('; '), verdict, verdictComputed, notes };
        }
        return { ...decided, result: 'fail', reason, verdict, verdictComputed, notes };
    }
    const gaps = [];
    if (status !== 'completed')
        gaps.push(`run ${status}`);
    if (planned.length === 0)
        gaps.push('the run planned no categories');
    if (missingCategories.length > 0)
        gaps.push(`missing ${missingCategories.join(', ')}`);
    gaps.push(...check.gaps);
    if (input.ingestIncomplete === true)
        gaps.push('the service reports ingest incomplete');
    if (input.ingestIncomplete === null)
        gaps.push('the run list item could not be read to confirm ingest completed');
    if (findings === null)
        gaps.push('the findings could not be read');
    if (!coverageReadable)
        gaps.push('the coverage could not be read');
    if (stopped) {
        return {
            ...decided,
            result: 'error',
            reason: [`coverage incomplete: ${reached}`, ...gaps, ...check.errors, ...tail].join('; '),
            verdict,
            verdictComputed,
            notes
        };
    }
    if (findings === null || !coverageReadable) {
        return { ...decided, result: 'error', reason: `the result cannot be trusted: ${gaps.join(', ')}`, verdict, verdictComputed, notes };
    }
    if (check.errors.length > 0) {
        for (const g of gaps)
            notes.push(`Also: ${g}.`);
        return { ...decided, result: 'error', reason: check.errors.join('; '), verdict, verdictComputed, notes };
    }
    if (gaps.length > 0) {
        return { ...decided, result: 'incomplete', reason: `coverage incomplete: ${reached}, ${gaps.join(', ')}`, verdict, verdictComputed, notes };
    }
    return {
        ...decided,
        result: 'pass',
        reason: `no open findings at or above ${minSeverity}; all ${plural(planned.length, 'planned category', 'planned categories')} covered`,
        verdict,
        verdictComputed,
        notes
    };
}

// EXTERNAL MODULE: ./src/stop-run.ts
var stop_run = __webpack_require__(2899);
// EXTERNAL MODULE: ./src/retry-policy.ts
var retry_policy = __webpack_require__(2976);
;// CONCATENATED MODULE: ./src/trigger.ts



/**
 * How far the service's clock may be behind ours when matching a run's
 * started_at against the time our request was sent. When the model's runs were
 * listed before the trigger, a new run id is the strong signal and the start
 * time only rules out old runs, so a wide window is safe; without that list,
 * the start time is all there is and the window stays narrow.
 */
const CLOCK_SKEW_MS = 5_000;
const CLOCK_SKEW_WITH_BASELINE_MS = 10 * 60_000;
/** Interval bounds while waiting for another run of the model to end. */
const OTHER_RUN_POLL_MIN_MS = 2_000;
const OTHER_RUN_POLL_MAX_MS = 15_000;
const ENDPOINT = 'POST /api/v1/run';
function elapsed(clock, since) {
    const s = Math.round((clock.now() - since) / 1000);
    return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
async function sleepWithin(deps, ms, what) {
    if (ms >= deps.deadline.remainingMs()) {
        throw new errors/* DeadlineExceededError */.Kt(ENDPOINT, `timeout_minutes ran out ${what}`);
    }
    await deps.clock.sleep(ms, deps.signal);
}
/** How many of the model's recent runs are recorded as existing before our trigger. */
const BASELINE_LIMIT = 20;
/**
 * The ids of the model's runs that exist before our first trigger: none of
 * them can be ours, whatever their start time says. Best effort: without it,
 * recovery falls back on start times alone.
 */
async function baselineRunIds(deps, modelId) {
    try {
        const list = await deps.api.listRuns(modelId, { limit: BASELINE_LIMIT }, { signal: deps.signal });
        return list.runs.map((r) => r.run_id);
    }
    catch (err) {
        if (!(err instanceof errors/* ServiceError */._7) || err instanceof errors/* DeadlineExceededError */.Kt)
            throw err;
        deps.log.debug(`Could not list the model's runs before triggering (${err.describe()}); a lost trigger answer will be matched by start time only.`);
        return null;
    }
}
/**
 * A run of the model that we do not know to be someone else's and that started
 * after `sentAt` (less the clock skew allowed). With a baseline, a start time
 * the service writes in a form we cannot read does not rule a run out.
 */
async function findRecoveredRun(deps, modelId, sentAt, foreign, haveBaseline) {
    const list = await deps.api.listRuns(modelId, { limit: 10 }, { signal: deps.signal });
    const skew = haveBaseline ? CLOCK_SKEW_WITH_BASELINE_MS : CLOCK_SKEW_MS;
    const startOf = (r) => Date.parse(r.started_at);
    const candidates = list.runs.filter((r) => {
        if (foreign.has(r.run_id))
            return false;
        const started = startOf(r);
        return Number.isNaN(started) ? haveBaseline : started >= sentAt - skew;
    });
    // The earliest readable start first (ours was sent first); unreadable ones last.
    candidates.sort((a, b) => (startOf(a) || Infinity) - (startOf(b) || Infinity));
    return candidates[0] ?? null;
}
/**
 * Wait until the model has no running run. Records the ids seen as foreign and
 * as waited for. Resolves with whether a running run was seen at all.
 */
async function waitForOtherRuns(deps, modelId, foreign, waitedFor) {
    const since = deps.clock.now();
    let delay = OTHER_RUN_POLL_MIN_MS;
    let lastLog = -Infinity;
    let sawRunning = false;
    for (;;) {
        // Unfiltered (most recent first): an active run in a status the description does not name counts too.
        const list = await deps.api.listRuns(modelId, { limit: 5 }, { signal: deps.signal });
        const running = list.runs.filter((r) => !(0,contract/* isTerminal */.Hd)(r.status));
        for (const r of running) {
            foreign.add(r.run_id);
            waitedFor.add(r.run_id);
        }
        if (running.length === 0)
            return sawRunning;
        sawRunning = true;
        if (deps.clock.now() - lastLog >= 30_000) {
            const ids = running.map((r) => (0,errors/* oneLine */.TN)(r.run_id, 80)).join(', ');
            deps.log.info(`Another assessment of model ${modelId} is running (run ${ids}); waiting for it to end before triggering ours (waited ${elapsed(deps.clock, since)}).`);
            lastLog = deps.clock.now();
        }
        if (delay >= deps.deadline.remainingMs()) {
            throw new errors/* DeadlineExceededError */.Kt(ENDPOINT, `another assessment of model ${modelId} (run ${running.map((r) => (0,errors/* oneLine */.TN)(r.run_id, 80)).join(', ')}) was still running when timeout_minutes ran out. Serialize workflow runs with a concurrency group keyed on the model_id (see examples/concurrency.yml)`);
        }
        await deps.clock.sleep(delay, deps.signal);
        delay = Math.min(OTHER_RUN_POLL_MAX_MS, Math.round(delay * 1.5));
    }
}
/** Turn a final trigger failure into the error a user can act on. */
async function explain(deps, args, err) {
    const { modelId } = args;
    switch (err.code) {
        case 'invalid_categories': {
            const valid = await validCategoryKeys(deps);
            const bad = invalidKeys(err, args.categories, valid);
            const badText = bad.length > 0 ? `unknown category keys: ${bad.join(', ')}` : 'the service refused the category keys';
            const validText = valid ? `valid keys: ${valid.join(', ')}` : 'the category list is not available to this key (GET /api/v1/category)';
            return new errors/* ConfigError */.xL('categories', `${badText}; ${validText}`);
        }
        case 'trial_focus_not_included':
            return new errors/* ConfigError */.xL('categories', 'evaluation (trial) workspaces run the full taxonomy only: leave categories empty, or use a key of a paid workspace');
        case 'incomplete_config':
            return new errors/* ConfigError */.xL('model_id', `the service refuses to run model ${modelId}: its agent config is incomplete. Complete its endpoint_url and response_field in the inventory (${err.serviceMessage})`);
        case 'insufficient_scope':
            return new errors/* ConfigError */.xL('api_key', 'the key lacks the test:run scope that triggering a run requires: use a key with test:run');
        case 'allowance_exhausted': {
            const resets = typeof err.extra.resets_on === 'string' ? (0,errors/* oneLine */.TN)(err.extra.resets_on, 40) : 'the 1st of next month (UTC)';
            err.hint = `The workspace's monthly assessment allowance is spent; it resets on ${resets}. Waiting within this job will not help`;
            return err;
        }
        case 'evaluation_ceiling':
            err.hint =
                "The evaluation workspace has reached its assessment ceiling. Only the service's operator can lift it (waiting does not): contact them or move to a paid plan";
            return err;
        case 'daily_budget_exhausted':
            err.hint = 'The daily assessment budget is spent and Retry-After is beyond timeout_minutes; run again later or raise timeout_minutes';
            return err;
    }
    if (err.status === 401) {
        return new errors/* ConfigError */.xL('api_key', 'the service rejected the key (401 unauthorized): check the secret holds a valid key for this service and workspace');
    }
    if (err.status === 403) {
        // A code this action does not know (or none): the service's own message says which refusal it is.
        err.hint =
            'On POST /run a 403 means the key lacks the test:run scope (use a key with it), the monthly allowance is spent (it resets on the 1st, UTC), or an evaluation ceiling was reached (only the operator lifts it); the message above says which';
        return err;
    }
    if (err.status === 404) {
        return new errors/* ConfigError */.xL('model_id', `model '${modelId}' was not found in this key's workspace: check the id (GET /api/v1/model lists the workspace's models) and that api_key belongs to the same workspace`);
    }
    return err;
}
async function validCategoryKeys(deps) {
    try {
        const list = await deps.api.listCategories({ lens: 'security' }, { signal: deps.signal });
        return list.categories.map((c) => (0,errors/* oneLine */.TN)(c.key, 100));
    }
    catch (e) {
        if (e instanceof errors/* ServiceError */._7)
            return null;
        throw e;
    }
}
function invalidKeys(err, asked, valid) {
    const fromService = err.extra.invalid;
    if (Array.isArray(fromService))
        return fromService.map((k) => (0,errors/* oneLine */.TN)(String(k), 100));
    if (valid)
        return asked.filter((k) => !valid.includes(k));
    return [];
}
/**
 * Trigger one run of the model. Resolves with the run this step created;
 * rejects with ConfigError, ServiceError, DeadlineExceededError or AbortedError.
 */
async function triggerRun(deps, args) {
    const policy = deps.policy ?? retry_policy/* DEFAULT_RETRY_POLICY */.cO;
    const random = deps.random ?? Math.random;
    if (deps.signal?.aborted)
        throw new errors/* AbortedError */.oM();
    if (deps.deadline.expired())
        throw new errors/* DeadlineExceededError */.Kt(ENDPOINT, 'timeout_minutes ran out before the run could be triggered');
    // Runs that exist before our trigger are someone else's (or an earlier step's).
    const baseline = await baselineRunIds(deps, args.modelId);
    const haveBaseline = baseline !== null;
    const foreign = new Set(baseline ?? []);
    const waitedFor = new Set();
    const body = args.categories.length > 0 ? { model_id: args.modelId, categories: args.categories } : { model_id: args.modelId };
    /** Earliest send time of an attempt whose outcome is unknown. */
    let ambiguousSince = null;
    let failures = 0;
    /** 409s in a row while the run list showed nothing running. */
    let busyRetries = 0;
    /** Why the last attempt did not start a run, for the timeout message. */
    let lastRefusal = null;
    const retried = [];
    for (;;) {
        if (deps.signal?.aborted)
            throw new errors/* AbortedError */.oM();
        if (deps.deadline.expired()) {
            throw new errors/* DeadlineExceededError */.Kt(ENDPOINT, `timeout_minutes ran out before the run could be triggered${lastRefusal ? `: ${lastRefusal}` : ''}`);
        }
        const sentAt = deps.clock.now();
        try {
            const res = await deps.api.triggerRun(body, { signal: deps.signal });
            return { runId: res.run_id, startedAt: res.started_at, recovered: false, waitedFor: [...waitedFor] };
        }
        catch (err) {
            if (!(err instanceof errors/* ServiceError */._7) || err instanceof errors/* DeadlineExceededError */.Kt)
                throw err;
            if (err.status === 409) {
                // The description gives a 409 here one meaning, whatever its code: an assessment is already active.
                if (ambiguousSince !== null) {
                    const mine = await findRecoveredRun(deps, args.modelId, ambiguousSince, foreign, haveBaseline);
                    if (mine)
                        return recovered(deps, mine, waitedFor);
                }
                if (await waitForOtherRuns(deps, args.modelId, foreign, waitedFor)) {
                    busyRetries = 0;
                    deps.log.info(`The other assessment of model ${args.modelId} has ended; triggering ours now.`);
                    continue;
                }
                // 409, yet the run list shows nothing running (its read side lags, or the run is not listed as running).
                busyRetries += 1;
                const wait = Math.min(OTHER_RUN_POLL_MAX_MS, OTHER_RUN_POLL_MIN_MS * 2 ** (busyRetries - 1));
                const said = `HTTP 409${err.code ? ` ${err.code}` : ''}`;
                deps.log.info(`The service says an assessment of model ${args.modelId} is already active (${said}), but its run list shows none running; trying again in ${Math.round(wait / 1000)} s.`);
                lastRefusal = `the service kept answering ${said} (an assessment of model ${args.modelId} is already active) while its run list showed none running`;
                await sleepWithin(deps, wait, `while ${lastRefusal}. Serialize workflow runs with a concurrency group keyed on the model_id (see examples/concurrency.yml)`);
                continue;
            }
            if (err.status === 429) {
                failures += 1;
                const wait = (0,retry_policy/* retryDelayMs */.qO)(err, failures, policy, random);
                const seconds = Math.ceil(wait / 1000);
                const asked = err.retryAfterMs !== undefined ? `the service asked to retry after ${Math.ceil(err.retryAfterMs / 1000)} s` : 'the service gave no Retry-After';
                if (wait >= deps.deadline.remainingMs()) {
                    const why = `${asked} (${err.code ?? 'rate limited'}); waiting ${seconds} s more would go beyond what is left of timeout_minutes`;
                    throw await explain(deps, args, new errors/* ServiceError */._7({ ...errInit(err), message: `${err.serviceMessage}; ${why}`, retried }));
                }
                lastRefusal = `the service kept rate limiting triggers (HTTP 429${err.code ? ` ${err.code}` : ''})`;
                deps.log.info(`The service is rate limiting triggers (${err.code ?? 'HTTP 429'}); ${asked}: retrying in ${seconds} s.`);
                retried.push(`HTTP 429 ${err.code ?? ''}, waited ${seconds} s`.replace('  ', ' '));
                await sleepWithin(deps, wait, 'while waiting out the rate limit');
                continue;
            }
            if (err.ambiguous) {
                ambiguousSince = ambiguousSince ?? sentAt;
                const mine = await findRecoveredRun(deps, args.modelId, ambiguousSince, foreign, haveBaseline);
                if (mine)
                    return recovered(deps, mine, waitedFor);
            }
            if ((0,retry_policy/* isRetryable */.r3)(err) && failures + 1 < policy.maxAttempts) {
                failures += 1;
                const wait = (0,retry_policy/* backoffDelayMs */.Q4)(failures, policy, random);
                deps.log.info(`Triggering the run failed (${err.describe()}); no run of ours is in the run list, retrying in ${(wait / 1000).toFixed(1)} s.`);
                lastRefusal = `the last attempt failed: ${err.describe()}`;
                retried.push(`${err.status !== undefined ? `HTTP ${err.status}` : (err.code ?? 'network error')}, waited ${(wait / 1000).toFixed(1)} s`);
                await sleepWithin(deps, wait, 'while retrying the trigger');
                continue;
            }
            err.attempts = failures + 1;
            err.retried = retried;
            throw await explain(deps, args, err);
        }
    }
}
function errInit(err) {
    return {
        endpoint: err.endpoint,
        status: err.status,
        code: err.code,
        message: err.serviceMessage,
        retryAfterMs: err.retryAfterMs,
        extra: err.extra
    };
}
function recovered(deps, run, waitedFor) {
    deps.log.info(`The answer to our trigger was lost, but run ${(0,errors/* oneLine */.TN)(run.run_id, 80)} of this model appeared after our request was sent: it is the one this step created; continuing with it.`);
    return { runId: run.run_id, startedAt: run.started_at, recovered: true, waitedFor: [...waitedFor] };
}

;// CONCATENATED MODULE: ./src/poll-schedule.ts
const DEFAULT_SCHEDULE_OPTIONS = {
    minDelayMs: 1_000,
    maxDelayMs: 30_000,
    noProgressMaxDelayMs: 15_000
};
// ---------------------------------------------------------------------------
// Tuning (figures checked by scripts/bench-sim.ts and its test)
// ---------------------------------------------------------------------------
/** Price of one request, in ms of expected detection latency. */
const REQUEST_PRICE_MS = 20;
/** Assumed coefficient of variation of one category's duration. */
const CATEGORY_CV = 0.7;
/** Bounds of the log-spread of the main component. */
const MIN_LOG_SPREAD = 0.2;
const MAX_LOG_SPREAD = 1.2;
/** Weight, median factor and log-spread of the broad "stall" component. */
const STALL_WEIGHT = 0.08;
const STALL_MEDIAN_FACTOR = 2;
const STALL_LOG_SPREAD = 1.5;
/** How many recent completions give the recent rate. */
const RECENT_WINDOW = 3;
/** No progress: first delay, and growth per ms elapsed. */
const NO_PROGRESS_FIRST_DELAY_MS = 2_000;
const NO_PROGRESS_GROWTH = 0.05;
/** All categories done but still running: growth of the delay per ms overdue. */
const DUE_GROWTH = 0.1;
/**
 * Estimated completion time of each category seen completing, oldest first.
 * A poll that sees the count rise from a to b learned that b - a categories
 * completed since the previous poll; they are spread evenly over that gap.
 */
function completionTimes(state) {
    const times = [];
    let prevAt = state.startedAtMs;
    let prevCount = 0;
    for (const o of state.observations) {
        if (o.completed > prevCount) {
            const n = o.completed - prevCount;
            for (let k = 1; k <= n; k++)
                times.push(prevAt + ((o.atMs - prevAt) * (k - 0.5)) / n);
            prevCount = o.completed;
        }
        prevAt = o.atMs;
    }
    return times;
}
function progressModel(state) {
    const last = state.observations.at(-1);
    if (!last || last.planned <= 0 || last.completed <= 0)
        return null;
    const times = completionTimes(state);
    const c = times.length;
    if (c === 0)
        return null;
    const anchorMs = times[c - 1];
    const planned = last.planned;
    const completed = Math.min(last.completed, planned);
    const remaining = planned - completed;
    const overall = Math.max(1, anchorMs - state.startedAtMs) / c;
    const k = Math.min(RECENT_WINDOW, c);
    const windowStart = c > k ? times[c - 1 - k] : state.startedAtMs;
    const recent = Math.max(1, anchorMs - windowStart) / k;
    const perCategory = Math.sqrt(overall * recent);
    const cv2 = CATEGORY_CV * CATEGORY_CV;
    const logSpread = Math.min(MAX_LOG_SPREAD, Math.max(MIN_LOG_SPREAD, Math.sqrt(Math.log(1 + cv2 / Math.max(1, remaining) + cv2 / c))));
    return { planned, completed, anchorMs, medianRemainingMs: remaining * perCategory, logSpread };
}
/**
 * The run's predicted end (epoch ms) from its progress: the median of the
 * model. Null when there is no usable progress (nothing planned or nothing
 * completed yet). When every planned category is done, the time of the last
 * completion (the end is due).
 */
function estimateEndMs(state) {
    const m = progressModel(state);
    if (!m)
        return null;
    return m.anchorMs + m.medianRemainingMs;
}
// ---------------------------------------------------------------------------
// Hazard of the remaining-time distribution
// ---------------------------------------------------------------------------
const SQRT_2PI = Math.sqrt(2 * Math.PI);
/** Standard normal density. */
function phi(z) {
    return Math.exp(-0.5 * z * z) / SQRT_2PI;
}
/**
 * exp(x^2) * erfc(x) for x >= 0 (Numerical Recipes' erfcc, relative error
 * below 1.2e-7), kept scaled so that far tails do not underflow.
 */
function scaledErfc(x) {
    const t = 1 / (1 + 0.5 * x);
    const poly = -1.26551223 +
        t *
            (1.00002368 +
                t *
                    (0.37409196 +
                        t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
    return t * Math.exp(poly);
}
/** Standard normal survival Q(z) = P(Z > z). */
function normalSurvival(z) {
    if (z >= 0)
        return 0.5 * scaledErfc(z / Math.SQRT2) * Math.exp(-0.5 * z * z);
    return 1 - 0.5 * scaledErfc(-z / Math.SQRT2) * Math.exp(-0.5 * z * z);
}
/** Lognormal density and survival at x > 0 for median m and log-spread s. */
function lognormal(x, m, s) {
    const z = Math.log(x / m) / s;
    return { pdf: phi(z) / (x * s), sf: normalSurvival(z) };
}
/** Hazard (per ms) that the run ends `x` ms after the anchor, given it has not yet. */
function hazard(model, x) {
    if (x <= 0)
        return 0;
    const main = lognormal(x, model.medianRemainingMs, model.logSpread);
    const stall = lognormal(x, model.medianRemainingMs * STALL_MEDIAN_FACTOR, STALL_LOG_SPREAD);
    const pdf = (1 - STALL_WEIGHT) * main.pdf + STALL_WEIGHT * stall.pdf;
    const sf = (1 - STALL_WEIGHT) * main.sf + STALL_WEIGHT * stall.sf;
    if (sf <= 0)
        return Infinity;
    return pdf / sf;
}
/** Locally best interval (ms) at hazard h (per ms). */
function intervalAt(h) {
    if (h <= 0)
        return Infinity;
    return Math.sqrt((2 * REQUEST_PRICE_MS) / h);
}
/** Candidate delays, longest first, in steps of about 10 %. */
function candidateDelays(minMs, maxMs) {
    const out = [];
    for (let d = maxMs; d > Math.max(minMs, 50); d /= 1.1)
        out.push(d);
    out.push(minMs);
    return out;
}
/**
 * The longest delay w such that no point of [now, now + w] has a locally best
 * interval shorter than w: the next poll never jumps over a stretch where
 * denser polling pays.
 */
function hazardDelay(model, nowMs, opts) {
    const candidates = candidateDelays(opts.minDelayMs, opts.maxDelayMs);
    const elapsed = nowMs - model.anchorMs;
    // Walk outwards from now: the tightest interval seen up to each offset.
    const ascending = [...candidates].reverse();
    let tightest = intervalAt(hazard(model, Math.max(1, elapsed)));
    let best = opts.minDelayMs;
    for (const w of ascending) {
        tightest = Math.min(tightest, intervalAt(hazard(model, elapsed + w)));
        if (w <= tightest)
            best = w;
        else
            break;
    }
    return best;
}
// ---------------------------------------------------------------------------
// The schedule
// ---------------------------------------------------------------------------
function clamp(x, lo, hi) {
    return Math.min(hi, Math.max(lo, x));
}
/**
 * Delay (ms) before the next poll, given what the polls so far saw and the
 * current time. Within [minDelayMs, maxDelayMs] (noProgressMaxDelayMs without
 * progress), except that it never ends before `retryAfterMs`.
 */
function nextPollDelayMs(state, nowMs, opts = DEFAULT_SCHEDULE_OPTIONS) {
    const minMs = Math.max(0, opts.minDelayMs);
    const maxMs = Math.max(minMs, opts.maxDelayMs);
    const noProgressMaxMs = clamp(opts.noProgressMaxDelayMs, minMs, maxMs);
    const bounded = { minDelayMs: minMs, maxDelayMs: maxMs, noProgressMaxDelayMs: noProgressMaxMs };
    let delay;
    const model = progressModel(state);
    if (!model) {
        const elapsed = Math.max(0, nowMs - state.startedAtMs);
        delay = clamp(NO_PROGRESS_FIRST_DELAY_MS + NO_PROGRESS_GROWTH * elapsed, minMs, noProgressMaxMs);
    }
    else if (model.completed >= model.planned) {
        const overdue = Math.max(0, nowMs - model.anchorMs);
        delay = clamp(minMs + DUE_GROWTH * overdue, minMs, noProgressMaxMs);
    }
    else {
        delay = clamp(hazardDelay(model, nowMs, bounded), minMs, maxMs);
    }
    if (state.retryAfterMs !== undefined && Number.isFinite(state.retryAfterMs)) {
        delay = Math.max(delay, state.retryAfterMs - nowMs);
    }
    return Math.round(delay);
}

;// CONCATENATED MODULE: ./src/wait-for-run.ts
/**
 * Waiting for the run: poll GET /run/{id}?min_severity= on the schedule of
 * poll-schedule.ts, one request in flight at a time, logging progress a
 * person can follow, until the status is terminal, the deadline passes or
 * the step is cancelled.
 */



/**
 * A run the service has just created may not be readable at once (its read
 * side lags the write): a 404 before the first successful read is tried again
 * after these waits before it counts.
 */
const NOT_FOUND_YET_WAITS_MS = [1_000, 2_000, 4_000];
/** Log a progress line at least this often, even when nothing changed. */
const HEARTBEAT_MS = 60_000;
function formatDuration(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60)
        return `${s} s`;
    const m = Math.floor(s / 60);
    if (m < 60)
        return `${m} min ${s % 60} s`;
    return `${Math.floor(m / 60)} h ${m % 60} min`;
}
async function waitForRun(deps, runId, minSeverity) {
    const { clock, log } = deps;
    const state = { startedAtMs: clock.now(), observations: [] };
    let last = null;
    let polls = 0;
    let lastLogged = { at: -Infinity, completed: -1, status: '' };
    let notFoundYet = 0;
    for (;;) {
        try {
            last = await deps.api.getRun(runId, { min_severity: minSeverity }, { signal: deps.signal });
        }
        catch (err) {
            if (err instanceof errors/* DeadlineExceededError */.Kt)
                return { end: 'timeout', last, polls, readError: err.describe() };
            if (err instanceof errors/* AbortedError */.oM)
                return { end: 'aborted', last, polls };
            if (!(err instanceof errors/* ServiceError */._7))
                throw err;
            const wait = polls === 0 && err.status === 404 ? NOT_FOUND_YET_WAITS_MS[notFoundYet] : undefined;
            if (wait === undefined || wait >= deps.deadline.remainingMs())
                return { end: 'unreadable', last, polls, readError: err.describe() };
            notFoundYet += 1;
            log.info(`Run ${runId} is not readable yet (HTTP 404 just after the trigger); trying again in ${wait / 1000} s.`);
            try {
                await clock.sleep(wait, deps.signal);
            }
            catch (e) {
                if (e instanceof errors/* AbortedError */.oM)
                    return { end: 'aborted', last, polls };
                throw e;
            }
            continue;
        }
        polls += 1;
        const now = clock.now();
        const planned = last.categories_planned.length;
        const completed = last.categories_completed.length;
        state.observations.push({ atMs: now, status: last.status, planned, completed });
        if (completed !== lastLogged.completed ||
            last.status !== lastLogged.status ||
            now - lastLogged.at >= HEARTBEAT_MS) {
            const progress = planned > 0 ? `${completed}/${planned} categories done` : 'progress not reported';
            log.info(`Run ${runId}: ${last.status}, ${progress}, ${formatDuration(now - state.startedAtMs)} elapsed.`);
            lastLogged = { at: now, completed, status: last.status };
        }
        if ((0,contract/* isTerminal */.Hd)(last.status))
            return { end: 'terminal', last, polls };
        const remaining = deps.deadline.remainingMs();
        if (remaining <= 0)
            return { end: 'timeout', last, polls };
        // Never sleep past the deadline: the last poll lands on it.
        const delay = Math.min(nextPollDelayMs(state, now), remaining);
        try {
            await clock.sleep(delay, deps.signal);
        }
        catch (err) {
            if (err instanceof errors/* AbortedError */.oM)
                return { end: 'aborted', last, polls };
            throw err;
        }
    }
}

;// CONCATENATED MODULE: ./src/gate.ts
/**
 * The pull-request gate: trigger a run, wait for it, stop it on timeout or
 * cancellation, read what it produced, and decide. Everything it touches is
 * passed in; the shell (main.ts) turns the outcome into outputs and reports.
 */







/** Time allowed for a cancel to take effect after timeout_minutes ran out (the service says about 5 s). */
const TIMEOUT_SETTLE_MS = 15_000;
/** After SIGINT the runner sends SIGTERM 7.5 s later and kills 2.5 s after that: stay well inside. */
const ABORT_SETTLE_MS = 5_000;
/**
 * Time allowed to read results after the run ended: what is left of
 * timeout_minutes, but at least this much, so a run that ends just before the
 * deadline can still be read (and a hanging read cannot hold the step long).
 */
const COLLECT_MIN_MS = 30_000;
async function runGate(deps, args) {
    const { clock, log } = deps;
    const startedAtMs = clock.now();
    const deadline = src_clock.Deadline.after(clock, args.timeoutMs);
    const api = deps.makeApi(deadline);
    const scope = args.categories.length > 0 ? `categories ${args.categories.join(', ')}` : 'the full taxonomy';
    log.info(`Triggering an assessment of model ${args.modelId} (${scope}; min_severity ${args.minSeverity}).`);
    const triggered = await triggerRun({ api, clock, deadline, signal: deps.signal, log, random: deps.random, policy: deps.policy }, { modelId: args.modelId, categories: args.categories });
    deps.onRunStarted(triggered.runId);
    log.info(`Run ${triggered.runId} started at ${triggered.startedAt}.`);
    const waited = await waitForRun({ api, clock, deadline, signal: deps.signal, log }, triggered.runId, args.minSeverity);
    let run = waited.last;
    const timedOut = waited.end === 'timeout';
    const aborted = waited.end === 'aborted';
    const unreadable = waited.end === 'unreadable';
    if (unreadable)
        log.warning(`The status of run ${triggered.runId} could not be read: ${waited.readError ?? 'no answer'}`);
    if (waited.end !== 'terminal') {
        // Do not leave the run going on the service. The main deadline may have passed
        // (or the step is being cancelled): the stop gets its own short budget.
        const stopApi = deps.makeApi(src_clock.Deadline.after(clock, aborted ? ABORT_SETTLE_MS : TIMEOUT_SETTLE_MS));
        const stopped = await (0,stop_run/* stopRun */.K)({ api: stopApi, clock, log }, triggered.runId, {
            settleMs: aborted ? ABORT_SETTLE_MS : TIMEOUT_SETTLE_MS,
            minSeverity: args.minSeverity,
            why: aborted ? 'the step was cancelled' : timedOut ? `timeout_minutes (${args.timeoutMs / 60_000}) ran out` : 'its status could not be read'
        });
        if (stopped.last)
            run = stopped.last;
        if (stopped.settled)
            deps.onRunSettled(triggered.runId);
    }
    else {
        deps.onRunSettled(triggered.runId);
    }
    let results = { coverage: null, findings: null, runListItem: null, model: null, notes: [] };
    if (run && (0,contract/* isTerminal */.Hd)(run.status) && !aborted) {
        log.info(`Run ${triggered.runId} ended with status ${run.status}; reading coverage and findings.`);
        const readBy = src_clock.Deadline.after(clock, Math.max(deadline.remainingMs(), COLLECT_MIN_MS));
        results = await collectResults(deps.makeApi(readBy), triggered.runId, args.modelId, { clock, log });
    }
    const decision = decide({
        status: run?.status ?? null,
        verdict: run?.verdict ?? null,
        minSeverity: args.minSeverity,
        categoriesPlanned: run?.categories_planned ?? [],
        categoriesCompleted: run?.categories_completed ?? [],
        ingestIncomplete: results.runListItem ? results.runListItem.ingest_incomplete : null,
        findings: results.findings,
        coverageReadable: results.coverage !== null,
        coverage: results.coverage,
        timedOut,
        aborted,
        statusReadError: unreadable ? (waited.readError ?? 'no answer') : null
    });
    return { triggered, run, end: waited.end, results, decision, startedAtMs, elapsedMs: clock.now() - startedAtMs };
}

// EXTERNAL MODULE: ./src/inputs.ts
var src_inputs = __webpack_require__(8422);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
;// CONCATENATED MODULE: ./src/render-budget.ts
/**
 * The markdown rendering of a report, shared by the PR comment and the job
 * summary, fitted to a size budget.
 *
 * The document is built from blocks, each ending with a blank line, so the
 * size of the whole is the sum of the sizes of its parts: nothing is rendered
 * twice to be measured. When the findings do not fit, the rendering degrades in
 * order: (1) replay fields are trimmed harder, then left out (the detail
 * ladder); (2) the least severe groups are collapsed to counts, one at a time,
 * the kept groups getting back the most detail that fits; (3) only counts. A
 * note near the top says what was left out and where the full data is.
 *
 * Every value from the service or the target goes through markdown-safe.ts.
 */



const RESULT_ICON = { pass: '✅', fail: '❌', incomplete: '⚠️', error: '⛔' };
const SEVERITY_ICON = { critical: '🔴', high: '🟠', medium: '🟡', low: '🔵' };
const RESULTS = ['pass', 'fail', 'incomplete', 'error'];
const VERDICTS = ['pass', 'fail'];
/** Share of the budget the coverage table and the notes may take at most. */
const COVERAGE_SHARE = 0.25;
const NOTES_SHARE = 0.08;
const MAX_NOTES = 30;
/** Room kept for the note on what was left out and the "not listed" line. */
const RESERVE = 1600;
const para = (s) => `${s}\n\n`;
/** "1 finding", "2,345 findings". */
function render_budget_plural(n, one, many = `${one}s`) {
    return `${formatCount(n)} ${n === 1 ? one : many}`;
}
// ---------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------
function headerBlock(r) {
    const out = [];
    out.push(para('## Agent security gate'));
    const icon = RESULT_ICON[r.result] ?? '⛔';
    out.push(para(`**${icon} ${enumText(r.result, RESULTS)}:** ${proseText(r.reason, 1000)}`));
    const items = [];
    const modelId = `model_id ${codeSpan(r.modelId, { max: 200 })}`;
    if (r.modelName !== null) {
        items.push(`- **Model:** ${codeSpan(r.modelName, { max: 200 })} at ${codeSpan(r.endpointHost ?? '', { max: 200 })} · ${modelId}`);
    }
    else {
        items.push(`- **Model:** ${modelId} (name and endpoint host not read)`);
    }
    const run = [];
    if (r.runId !== null) {
        run.push(codeSpan(r.runId, { max: 120 }));
        run.push(`status ${enumText(r.runStatus, contract/* RUN_STATUSES */.LV)}`);
    }
    else {
        run.push('the run did not start');
    }
    run.push(`min_severity ${enumText(r.minSeverity, contract/* SEVERITIES */.oC)}`);
    const elapsed = formatElapsed(r.elapsedMs);
    if (elapsed)
        run.push(`elapsed ${elapsed}`);
    if (r.ingestIncomplete === true)
        run.push('**ingest incomplete**');
    const link = trustedLink('workflow run', r.runUrl);
    if (link)
        run.push(link);
    items.push(`- **Run:** ${run.join(' · ')}`);
    const verdict = r.verdict === null
        ? 'none'
        : `${enumText(r.verdict, VERDICTS)}, ${r.verdictComputed ? 'computed locally from the findings' : 'from the service'}`;
    items.push(`- **Verdict:** ${verdict}`);
    items.push(`- **Findings:** ${findingsSummary(r)}`);
    out.push(para(items.join('\n')));
    return out.join('');
}
function findingsSummary(r) {
    const c = r.counts;
    if (c === null)
        return '**could not be read**';
    const sev = enumText(r.minSeverity, contract/* SEVERITIES */.oC);
    const parts = [`${formatCount(c.total)} in total (${describeCounts(c.bySeverity)})`];
    parts.push(`${formatCount(c.atOrAbove)} at or above ${sev}, ${formatCount(c.openAtOrAbove)} of them open`);
    if (c.redacted > 0)
        parts.push(`${formatCount(c.redacted)} redacted`);
    return parts.join('; ');
}
const STATE_TEXT = {
    completed: 'completed',
    partial: 'partial (not completed)',
    'not reached': '**not reached**',
    probed: 'probed'
};
function num(n) {
    return n === null ? '–' : formatCount(n);
}
function coverageRowLine(row) {
    const state = (STATE_TEXT[row.state] ?? codeSpan(row.state, { table: true })) + (row.planned ? '' : ', not planned');
    const cells = [
        codeSpan(row.category, { max: 100, table: true }),
        state,
        num(row.blocked),
        num(row.succeeded),
        row.owasp === null ? '–' : codeSpan(row.owasp, { max: 60, table: true }),
        row.atlas === null ? '–' : codeSpan(row.atlas, { max: 60, table: true }),
        enumCell(row.worstSeverity, contract/* SEVERITIES */.oC)
    ];
    return `| ${cells.join(' | ')} |\n`;
}
function coverageBlock(r, budget, m) {
    const planned = r.coverageRows.filter((row) => row.planned).length;
    let head;
    if (r.categoriesPlanned === null) {
        head = '#### Coverage\n\nThe run status was not read: the planned categories are unknown.';
    }
    else {
        head = `#### Coverage: ${formatCount(r.coverageCompleted)} of ${formatCount(planned)} planned categories completed`;
        if (r.coverageNotReached > 0)
            head += `, ${formatCount(r.coverageNotReached)} not reached`;
    }
    const out = [para(head)];
    if (!r.coverageReadable)
        out.push(para('The coverage could not be read: attack counts, OWASP and ATLAS references are unknown.'));
    if (r.coverageRows.length === 0)
        return { text: out.join(''), left: 0 };
    const tableHead = '| Category | State | Blocked | Got through | OWASP | ATLAS | Worst severity |\n| --- | --- | ---: | ---: | --- | --- | --- |\n';
    let used = m(out.join('')) + m(tableHead) + 200;
    const rows = [];
    let left = 0;
    for (let i = 0; i < r.coverageRows.length; i++) {
        const line = coverageRowLine(r.coverageRows[i]);
        const size = m(line);
        if (used + size > budget) {
            left = r.coverageRows.length - i;
            break;
        }
        used += size;
        rows.push(line);
    }
    if (rows.length > 0)
        out.push(tableHead, rows.join(''), '\n');
    if (left > 0) {
        const notReached = r.coverageRows.slice(r.coverageRows.length - left).filter((row) => row.state === 'not reached').length;
        out.push(para(`*${render_budget_plural(left, 'more category', 'more categories')} not shown (${formatCount(notReached)} of them not reached).*`));
    }
    return { text: out.join(''), left };
}
function notesBlock(r, budget, m) {
    if (r.notes.length === 0)
        return { text: '', left: 0 };
    const lines = [];
    let used = 40;
    let shown = 0;
    for (const note of r.notes) {
        if (shown >= MAX_NOTES)
            break;
        const line = `- ${proseText(note, 600)}\n`;
        const size = m(line);
        if (used + size > budget)
            break;
        used += size;
        lines.push(line);
        shown += 1;
    }
    const left = r.notes.length - shown;
    if (left > 0)
        lines.push(`- *${render_budget_plural(left, 'more note')} not shown.*\n`);
    return { text: `**Notes:**\n\n${lines.join('')}\n`, left };
}
function belowCountsLine(r) {
    const c = r.counts;
    if (c === null || c.belowThreshold === 0)
        return '';
    const sev = enumText(r.minSeverity, contract/* SEVERITIES */.oC);
    return para(`**Below ${sev}:** ${render_budget_plural(c.belowThreshold, 'finding')} (${describeCounts(c.belowBySeverity)}), counted here and not listed.`);
}
function redactionLine(r) {
    const c = r.counts;
    if (c === null || c.redacted === 0 || r.redactionReason === null)
        return '';
    const sev = enumText(r.minSeverity, contract/* SEVERITIES */.oC);
    return para(`**Redacted:** ${render_budget_plural(c.redacted, 'finding')} (${formatCount(c.redactedAtOrAbove)} at or above ${sev}) ${c.redacted === 1 ? 'is' : 'are'} shown without proof: ${proseText(r.redactionReason, 200)}. ${c.redacted === 1 ? 'It counts' : 'They count'} the same as the others.`);
}
function footerBlock(profile, notes) {
    const lines = [
        para('---'),
        para(`*Text in code spans and code blocks is quoted from the service and the agent under test: untrusted data, not instructions.* Full data: ${profile.fullDataWhere}.`),
        notes
    ];
    return lines.join('');
}
// ---------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------
const BLOCK_FIELDS = [
    ['message', 'Message'],
    ['body', 'Request body'],
    ['response', 'Response'],
    ['responseBody', 'Response body'],
    ['assertion', 'Assertion'],
    ['expectedBehavior', 'Expected behaviour']
];
function stepBlock(step, n, level) {
    const head = [`**Step ${n}:** ${codeSpan(step.step, { max: 80 })}`];
    if (step.method !== null || step.url !== null) {
        const req = [step.method !== null ? codeSpan(step.method, { max: 20 }) : null, step.url !== null ? codeSpan(step.url, { max: 300 }) : null];
        head.push(req.filter((x) => x !== null).join(' '));
    }
    if (step.responseStatus !== null)
        head.push(`status ${formatCount(step.responseStatus)}`);
    if (step.sessionId !== null)
        head.push(`session ${codeSpan(step.sessionId, { max: 80 })}`);
    if (step.target !== null)
        head.push(`target ${codeSpan(step.target, { max: 80 })}`);
    if (step.captureAs !== null)
        head.push(`captured as ${codeSpan(step.captureAs, { max: 80 })}`);
    const out = [para(head.join(' · '))];
    const blockOpts = { maxChars: level.fieldChars, maxLineChars: level.lineChars, maxLines: level.maxLines };
    if (step.headers !== null) {
        const entries = Object.entries(step.headers);
        const oneLine = (t, max) => sanitizeText(clampText(t, max).text, false);
        const shown = entries.slice(0, level.maxHeaders).map(([k, v]) => `${oneLine(k, 100)}: ${oneLine(v, 300)}`);
        if (entries.length > shown.length)
            shown.push(`(${formatCount(entries.length - shown.length)} more headers)`);
        out.push(para('**Headers:**'), para(codeBlock(shown.join('\n'), blockOpts)));
    }
    for (const [key, label] of BLOCK_FIELDS) {
        const v = step[key];
        if (typeof v === 'string')
            out.push(para(`**${label}:**`), para(codeBlock(v, blockOpts)));
    }
    return out.join('');
}
function attackBlock(a, n, of, level) {
    const replay = contract/* REPLAY_STATUSES */.Z_.includes(a.lastReplayStatus) ? a.lastReplayStatus : htmlCode(String(a.lastReplayStatus), 30);
    const summary = [
        `Attack ${n} of ${of}: ${htmlCode(a.attackId, 80)}`,
        `score ${formatCount(a.score)}`,
        `last replay ${replay}`,
        render_budget_plural(a.steps.length, 'replay step')
    ].join(' · ');
    const out = [`<details>\n<summary>${summary}</summary>\n\n`];
    const steps = a.steps.slice(0, level.maxSteps);
    steps.forEach((st, i) => out.push(stepBlock(st, i + 1, level)));
    if (a.steps.length > steps.length)
        out.push(para(`*${render_budget_plural(a.steps.length - steps.length, 'more step')} in the full data.*`));
    if (a.steps.length === 0)
        out.push(para('*No replay steps.*'));
    out.push(para('</details>'));
    return out.join('');
}
function findingBlock(f, n, level) {
    const head = [
        `**${formatCount(n)}. ${codeSpan(f.category, { max: 100 })}**`,
        `lens ${enumText(f.lens, contract/* FINDING_LENSES */.bO)}`,
        `status **${enumText(f.status, contract/* FINDING_STATUSES */.pM)}**`,
        `id ${codeSpan(f.findingId, { max: 80 })}`
    ];
    if (f.redacted) {
        head.push('**proof withheld** by the plan');
        return para(head.join(' · '));
    }
    head.push(render_budget_plural(f.attacks.length, 'attack'));
    const out = [para(head.join(' · '))];
    out.push(para(`**Description:** ${codeSpan(f.description, { max: level.proseChars })}`));
    out.push(para(`**Expected behaviour:** ${codeSpan(f.expectedBehavior, { max: level.proseChars })}`));
    if (f.attacks.length > 0) {
        if (level.fieldChars <= 0) {
            out.push(para(`*Replay steps of ${render_budget_plural(f.attacks.length, 'attack')} left out (see the full data).*`));
        }
        else {
            const attacks = f.attacks.slice(0, level.maxAttacks);
            attacks.forEach((a, i) => out.push(attackBlock(a, i + 1, f.attacks.length, level)));
            if (f.attacks.length > attacks.length)
                out.push(para(`*${render_budget_plural(f.attacks.length - attacks.length, 'more attack')} in the full data.*`));
        }
    }
    return out.join('');
}
function groupHeading(sev, total) {
    return para(`##### ${SEVERITY_ICON[sev]} ${sev}: ${formatCount(total)}`);
}
function belowLine(f) {
    const parts = [
        enumText(f.severity, contract/* SEVERITIES */.oC),
        codeSpan(f.category, { max: 100 }),
        `lens ${enumText(f.lens, contract/* FINDING_LENSES */.bO)}`,
        `status ${enumText(f.status, contract/* FINDING_STATUSES */.pM)}`,
        `id ${codeSpan(f.findingId, { max: 80 })}`
    ];
    if (f.redacted)
        parts.push('proof withheld');
    return `- ${parts.join(' · ')}\n`;
}
function minimalDocument(r, profile) {
    const icon = RESULT_ICON[r.result] ?? '⛔';
    const lines = [];
    if (profile.marker)
        lines.push(profile.marker);
    lines.push('## Agent security gate');
    lines.push(`**${icon} ${enumText(r.result, RESULTS)}:** ${proseText(r.reason, 300)}`);
    lines.push(`**Findings:** ${findingsSummary(r)}`);
    lines.push(`*The report did not fit ${profile.limitLabel}: only counts are shown. Full data: ${profile.fullDataWhere}.*`);
    const m = profile.measure;
    // Drop lines from the end until it fits (a tiny budget), never cutting inside a line.
    while (lines.length > 1 && m(lines.join('\n\n') + '\n') > profile.limit)
        lines.pop();
    const doc = lines.join('\n\n') + '\n';
    if (m(doc) <= profile.limit)
        return doc;
    return '';
}
function renderMarkdownReport(r, profile) {
    const m = profile.measure;
    const limit = profile.limit;
    const ladder = profile.ladder;
    const last = ladder.length - 1;
    const marker = profile.marker ? para(profile.marker) : '';
    const header = headerBlock(r);
    const coverage = coverageBlock(r, Math.floor(limit * COVERAGE_SHARE), m);
    const notes = notesBlock(r, Math.floor(limit * NOTES_SHARE), m);
    const footer = footerBlock(profile, notes.text);
    const redaction = redactionLine(r);
    const belowCounts = profile.listBelowThreshold ? '' : belowCountsLine(r);
    const sev = enumText(r.minSeverity, contract/* SEVERITIES */.oC);
    const list = r.groups.flatMap((g) => g.findings);
    const total = list.length;
    let findingsHead;
    if (r.counts === null)
        findingsHead = para('#### Findings\n\nThe findings could not be read.');
    else if (total === 0)
        findingsHead = para(`#### Findings at or above ${sev}: none`);
    else
        findingsHead = para(`#### Findings at or above ${sev}: ${formatCount(total)}`);
    const fixed = m(marker) + m(header) + m(coverage.text) + m(footer) + m(redaction) + m(belowCounts) + m(findingsHead);
    const avail = limit - fixed - RESERVE;
    if (avail < 0 || ladder.length === 0)
        return minimalDocument(r, profile);
    // Where each group starts, and the group total of each finding's severity.
    const groupStart = new Set();
    const groupEnds = [];
    const groupTotal = new Map();
    let at = 0;
    for (const g of r.groups) {
        groupStart.add(at);
        at += g.findings.length;
        groupEnds.push(at);
        groupTotal.set(g.severity, g.findings.length);
    }
    // Blocks per level, rendered lazily and once; fitted[level] = how many fit.
    const blocks = ladder.map(() => []);
    const fitted = ladder.map(() => undefined);
    const used = ladder.map(() => 0);
    const blockAt = (i, level) => {
        const cached = blocks[level][i];
        if (cached !== undefined)
            return cached;
        const f = list[i];
        const head = groupStart.has(i) ? groupHeading(f.severity, groupTotal.get(f.severity) ?? 0) : '';
        const b = head + findingBlock(f, i + 1, ladder[level]);
        blocks[level][i] = b;
        return b;
    };
    const fitCount = (level) => {
        const known = fitted[level];
        if (known !== undefined)
            return known;
        let size = 0;
        let k = 0;
        while (k < total) {
            const s = m(blockAt(k, level));
            if (size + s > avail)
                break;
            size += s;
            k += 1;
        }
        fitted[level] = k;
        used[level] = size;
        return k;
    };
    // Whether the first n blocks fit at a level. A level whose sampled blocks
    // show that n of them would clearly overflow is skipped without rendering up
    // to the budget (5,000 findings would otherwise render about a budget's worth
    // of text at every level). The sample is the first blocks, which an exact fit
    // renders first anyway; a wrong estimate can only lower the detail.
    const SAMPLE = 64;
    const MIN_SAMPLE = 8;
    const clearlyOverflows = (level, n) => {
        let size = 0;
        for (let k = 0; k < Math.min(SAMPLE, n); k++) {
            size += m(blockAt(k, level));
            if (k + 1 >= MIN_SAMPLE && (size / (k + 1)) * n > 2 * avail)
                return true;
        }
        return false;
    };
    const fits = (level, n) => {
        if (n > SAMPLE && fitted[level] === undefined && clearlyOverflows(level, n))
            return false;
        return fitCount(level) >= n;
    };
    let layout = null;
    for (let L = 0; L <= last && layout === null; L++)
        if (fits(L, total))
            layout = { listed: total, level: L, belowListed: 0 };
    for (let g = r.groups.length - 1; g >= 1 && layout === null; g--) {
        const keep = groupEnds[g - 1];
        for (let L = 0; L <= last; L++) {
            if (fits(L, keep)) {
                layout = { listed: keep, level: L, belowListed: 0 };
                break;
            }
        }
    }
    if (layout === null)
        layout = { listed: fitCount(last), level: last, belowListed: 0 };
    // Findings section.
    const section = [findingsHead];
    let sectionSize = m(findingsHead);
    for (let i = 0; i < layout.listed; i++) {
        const b = blockAt(i, layout.level);
        section.push(b);
        sectionSize += m(b);
    }
    const unlisted = zeroCounts();
    for (let i = layout.listed; i < total; i++)
        unlisted[list[i].severity] += 1;
    const unlistedCount = total - layout.listed;
    // Groups cut short or collapsed to counts: a line each (at most four, within the reserve).
    for (const g of r.groups) {
        const n = unlisted[g.severity];
        if (n === 0)
            continue;
        const line = n === g.findings.length
            ? groupHeading(g.severity, n) + para(`*Collapsed to a count to fit (see the note at the top).*`)
            : para(`*${render_budget_plural(n, `more ${g.severity} finding`)} not listed (see the note at the top).*`);
        section.push(line);
        sectionSize += m(line);
    }
    // Below the threshold (summary): one line each, with what is left.
    let belowText = belowCounts;
    let belowLeft = 0;
    if (profile.listBelowThreshold && r.counts !== null && r.below.length > 0) {
        const head = para(`#### Findings below ${sev}: ${formatCount(r.below.length)} (${describeCounts(r.counts.belowBySeverity)})`);
        const room = avail - sectionSize - m(head) - 200;
        const lines = [];
        let size = 0;
        if (unlistedCount === 0) {
            for (const f of r.below) {
                const line = belowLine(f);
                const s = m(line);
                if (size + s > room)
                    break;
                size += s;
                lines.push(line);
            }
        }
        layout.belowListed = lines.length;
        belowLeft = r.below.length - lines.length;
        belowText = head + (lines.length > 0 ? `${lines.join('')}\n` : '');
        if (belowLeft > 0)
            belowText += para(`*${render_budget_plural(belowLeft, 'finding')} below ${sev} not listed here.*`);
    }
    // What was left out.
    const cuts = [];
    const lvl = ladder[layout.level];
    if (layout.level > 0 && layout.listed > 0) {
        cuts.push(lvl.fieldChars > 0
            ? `replay fields trimmed to ${formatCount(lvl.fieldChars)} characters, at most ${lvl.maxAttacks} attacks per finding and ${lvl.maxSteps} steps per attack`
            : 'replay steps left out');
    }
    if (unlistedCount > 0) {
        cuts.push(layout.listed === 0
            ? `only counts of the findings at or above ${sev} are shown`
            : `${describeCounts(unlisted)} findings at or above ${sev} collapsed to counts`);
    }
    if (belowLeft > 0)
        cuts.push(`${formatCount(belowLeft)} findings below ${sev} not listed`);
    if (coverage.left > 0)
        cuts.push(`${formatCount(coverage.left)} coverage rows not shown`);
    if (notes.left > 0)
        cuts.push(`${formatCount(notes.left)} notes not shown`);
    const notice = cuts.length > 0
        ? para(`> **Shortened to fit ${profile.limitLabel}:** ${cuts.join('; ')}. The full data is in ${profile.fullDataWhere}.`)
        : '';
    const doc = [marker, header, notice, coverage.text, section.join(''), belowText, redaction, footer].join('').replace(/\n+$/, '\n');
    if (m(doc) > limit)
        return minimalDocument(r, profile);
    return doc;
}

;// CONCATENATED MODULE: ./src/render-comment.ts
/**
 * The sticky PR comment: the report in markdown, under GitHub's comment limit,
 * starting with a hidden marker that names the model, so each model of a matrix
 * keeps its own comment and the next run edits it in place.
 */


/** GitHub's limit on a comment body, in characters. */
const COMMENT_LIMIT = 65536;
const MARKER_PREFIX = '<!-- asas-gate:model=';
const MARKER_SUFFIX = ' -->';
/** Longer encoded ids are shortened to a prefix and a hash (the marker stays small and unique). */
const MARKER_MAX_ENCODED = 120;
/**
 * Percent-encodes every UTF-8 byte except ASCII letters, digits and `_`, so the
 * result can hold no `-`, `>`, `!`, space or line break: it cannot end or break
 * the HTML comment, and distinct ids give distinct encodings.
 */
function strictEncode(text) {
    const bytes = Buffer.from(text, 'utf8');
    let out = '';
    for (const b of bytes) {
        const c = String.fromCharCode(b);
        out += /[A-Za-z0-9_]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    return out;
}
/** The hidden first line of the comment of `modelId`, e.g. `<!-- asas-gate:model=m_123 -->`. */
function commentMarker(modelId) {
    let enc = strictEncode(modelId);
    if (enc.length > MARKER_MAX_ENCODED) {
        const hash = (0,external_node_crypto_.createHash)('sha256').update(modelId, 'utf8').digest('hex');
        enc = `${strictEncode(modelId.slice(0, 30)).slice(0, 60)}.sha256.${hash}`;
    }
    return `${MARKER_PREFIX}${enc}${MARKER_SUFFIX}`;
}
/**
 * True when `body` is the gate's comment for `modelId`: it must START with the
 * marker (quoted text inside another comment may contain a marker-like string).
 */
function isCommentFor(body, modelId) {
    const marker = commentMarker(modelId);
    return body.startsWith(`${marker}\n`) || body.startsWith(`${marker}\r\n`) || body === marker;
}
/** Detail ladder of the comment: most detailed first; the last leaves replay steps out. */
const COMMENT_LADDER = [
    { fieldChars: 2000, lineChars: 300, maxLines: 40, proseChars: 1500, maxAttacks: 3, maxSteps: 8, maxHeaders: 20 },
    { fieldChars: 600, lineChars: 200, maxLines: 15, proseChars: 600, maxAttacks: 2, maxSteps: 5, maxHeaders: 10 },
    { fieldChars: 160, lineChars: 160, maxLines: 5, proseChars: 300, maxAttacks: 1, maxSteps: 3, maxHeaders: 5 },
    { fieldChars: 0, lineChars: 0, maxLines: 0, proseChars: 200, maxAttacks: 0, maxSteps: 0, maxHeaders: 0 }
];
/** The comment body: starts with the marker line; at most `limit` characters (UTF-16 code units). */
function renderComment(report, opts = {}) {
    const limit = opts.limit ?? COMMENT_LIMIT;
    return renderMarkdownReport(report, {
        limit,
        measure: (s) => s.length,
        limitLabel: `the ${limit.toLocaleString('en-US')}-character limit of a GitHub comment`,
        marker: commentMarker(report.modelId),
        ladder: COMMENT_LADDER,
        listBelowThreshold: false,
        fullDataWhere: "the job summary of this workflow run and the JSON report (the step's `report_path` output)"
    });
}

;// CONCATENATED MODULE: ./src/render-json.ts
/** Default ceiling of the JSON text (UTF-16 code units): far above any real run, below what a runner can hold. */
const JSON_LIMIT_CHARS = 64 * 1024 * 1024;
/** Per-field caps tried, in order, when the data is too large. */
const FIELD_CAPS = [1024 * 1024, 256 * 1024, 64 * 1024, 16 * 1024, 4096, 1024, 256];
function stepJson(st, cap) {
    const c = (v) => (v === null ? null : cap(v));
    let headers = null;
    if (st.headers !== null) {
        headers = {};
        for (const [k, v] of Object.entries(st.headers))
            headers[cap(k)] = cap(v);
    }
    return {
        step: cap(st.step),
        message: c(st.message),
        response: c(st.response),
        session_id: c(st.sessionId),
        method: c(st.method),
        url: c(st.url),
        headers,
        body: c(st.body),
        response_status: st.responseStatus,
        response_body: c(st.responseBody),
        target: c(st.target),
        assertion: c(st.assertion),
        expected_behavior: c(st.expectedBehavior),
        capture_as: c(st.captureAs)
    };
}
function findingJson(f, cap) {
    return {
        finding_id: f.findingId,
        severity: f.severity,
        at_or_above_threshold: f.atOrAbove,
        category: f.category,
        lens: f.lens,
        status: f.status,
        redacted: f.redacted,
        description: cap(f.description),
        expected_behavior: cap(f.expectedBehavior),
        created_at: f.createdAt,
        attacks: f.attacks.map((a) => ({
            attack_id: a.attackId,
            score: a.score,
            last_replay_status: a.lastReplayStatus,
            created_at: a.createdAt,
            last_replayed_at: a.lastReplayedAt,
            source: a.source
                ? { source_type: a.source.sourceType, assessment_id: a.source.assessmentId, attack_index: a.source.attackIndex, date: a.source.date }
                : null,
            replay_script: a.steps.map((st) => stepJson(st, cap))
        }))
    };
}
/** Total length of the long texts, each counted at most `cap` (a cheap estimate of the file's size). */
function textSize(r, cap) {
    let n = 0;
    const add = (v) => {
        if (v !== null)
            n += Math.min(v.length, cap);
    };
    for (const f of r.findings) {
        add(f.description);
        add(f.expectedBehavior);
        for (const a of f.attacks) {
            for (const st of a.steps) {
                add(st.message);
                add(st.response);
                add(st.body);
                add(st.responseBody);
                add(st.assertion);
                add(st.expectedBehavior);
                add(st.url);
                if (st.headers)
                    for (const [k, v] of Object.entries(st.headers))
                        n += Math.min(k.length, cap) + Math.min(v.length, cap);
                n += 900;
            }
            n += 600;
        }
        n += 800;
    }
    // JSON escapes (\n, \", \\) and indentation.
    return Math.ceil(n * 1.15);
}
function renderJson(report, opts = {}) {
    const limit = opts.limitChars ?? JSON_LIMIT_CHARS;
    // Caps to try: none, then the first whose estimate fits, then smaller ones while the text is still too long.
    const caps = [Number.POSITIVE_INFINITY, ...FIELD_CAPS];
    let i = caps.findIndex((c) => textSize(report, c) <= limit);
    if (i < 0)
        i = caps.length - 1;
    let json = renderJsonWithCap(report, caps[i]);
    while (json.length > limit && i < caps.length - 1) {
        i += 1;
        json = renderJsonWithCap(report, caps[i]);
    }
    return json;
}
function renderJsonWithCap(report, cap) {
    let truncatedFields = 0;
    const capFn = Number.isFinite(cap)
        ? (s) => {
            if (s.length <= cap)
                return s;
            truncatedFields += 1;
            return `${s.slice(0, cap)}…[${s.length - cap} more characters cut]`;
        }
        : (s) => s;
    const r = report;
    const c = r.counts;
    const data = {
        schema_version: r.schemaVersion,
        model_id: r.modelId,
        model: r.modelName === null ? null : { name: r.modelName, endpoint_host: r.endpointHost },
        min_severity: r.minSeverity,
        result: r.result,
        reason: r.reason,
        verdict: r.verdict,
        verdict_computed: r.verdictComputed,
        run: {
            run_id: r.runId,
            status: r.runStatus,
            started_at: r.startedAt,
            completed_at: r.completedAt,
            categories_planned: r.categoriesPlanned,
            categories_completed: r.categoriesCompleted,
            ingest_incomplete: r.ingestIncomplete,
            elapsed_ms: r.elapsedMs,
            url: r.runUrl
        },
        coverage: {
            readable: r.coverageReadable,
            planned: r.coverageRows.filter((row) => row.planned).length,
            completed: r.coverageCompleted,
            not_reached: r.coverageNotReached,
            categories: r.coverageRows.map((row) => ({
                category: row.category,
                planned: row.planned,
                state: row.state,
                attacks_blocked: row.blocked,
                attacks_succeeded: row.succeeded,
                owasp: row.owasp,
                atlas: row.atlas,
                worst_severity: row.worstSeverity
            }))
        },
        counts: c === null
            ? null
            : {
                total: c.total,
                by_severity: c.bySeverity,
                open_by_severity: c.openBySeverity,
                at_or_above_threshold: c.atOrAbove,
                open_at_or_above_threshold: c.openAtOrAbove,
                below_threshold: c.belowThreshold,
                below_threshold_by_severity: c.belowBySeverity,
                redacted: c.redacted,
                redacted_at_or_above_threshold: c.redactedAtOrAbove
            },
        redaction: c !== null && c.redacted > 0 ? { count: c.redacted, reason: r.redactionReason } : null,
        findings_readable: r.findingsReadable,
        findings: r.findings.map((f) => findingJson(f, capFn)),
        notes: r.notes,
        truncation: null
    };
    if (truncatedFields > 0)
        data.truncation = { max_field_chars: cap, fields_truncated: truncatedFields };
    return `${JSON.stringify(data, null, 2)}\n`;
}

;// CONCATENATED MODULE: ./src/render-summary.ts
/**
 * The job summary (GITHUB_STEP_SUMMARY): the same report as the comment, with
 * more detail (longer replay fields, findings below the threshold listed), under
 * GitHub's 1 MiB limit of a step summary.
 */

/** GitHub's limit on a step summary, in bytes. */
const SUMMARY_LIMIT = 1024 * 1024;
/** Detail ladder of the summary: most detailed first; the last leaves replay steps out. */
const SUMMARY_LADDER = [
    { fieldChars: 16000, lineChars: 1000, maxLines: 200, proseChars: 4000, maxAttacks: 20, maxSteps: 40, maxHeaders: 50 },
    { fieldChars: 4000, lineChars: 500, maxLines: 60, proseChars: 2000, maxAttacks: 10, maxSteps: 20, maxHeaders: 30 },
    { fieldChars: 800, lineChars: 300, maxLines: 15, proseChars: 800, maxAttacks: 5, maxSteps: 10, maxHeaders: 15 },
    { fieldChars: 200, lineChars: 200, maxLines: 5, proseChars: 400, maxAttacks: 2, maxSteps: 4, maxHeaders: 8 },
    { fieldChars: 0, lineChars: 0, maxLines: 0, proseChars: 300, maxAttacks: 0, maxSteps: 0, maxHeaders: 0 }
];
/** Markdown for GITHUB_STEP_SUMMARY; its UTF-8 length is at most `limitBytes`. */
function renderSummary(report, opts = {}) {
    const limit = opts.limitBytes ?? SUMMARY_LIMIT;
    return renderMarkdownReport(report, {
        limit,
        measure: (s) => Buffer.byteLength(s, 'utf8'),
        limitLabel: `the ${limit.toLocaleString('en-US')}-byte limit of a job summary`,
        marker: null,
        ladder: SUMMARY_LADDER,
        listBelowThreshold: true,
        fullDataWhere: "the JSON report (the step's `report_path` output)"
    });
}

// EXTERNAL MODULE: ./src/state.ts
var state = __webpack_require__(2462);
;// CONCATENATED MODULE: ./src/validate-mode.ts
/**
 * `mode: validate`: re-run the attacks of every finding marked fixed among the
 * model's recent runs (POST /findings/{id}/validate, section 4.10) and report
 * which fixes hold.
 *
 * - Candidates: GET /model/{id}/run?limit=max_runs (most recent first), then
 *   GET /run/{run_id}/findings?status=fixed of each terminal run (a running run
 *   has no readable findings: skipped, as is a 409 run_in_progress). Deduped by
 *   finding_id (the most recent run wins); validated most severe first, so a
 *   daily replay cap is spent where it matters.
 * - ONE validation at a time. Verdicts resolved / still_broken / not_eligible
 *   are final; `validating` is followed through the findings list until the
 *   finding's status leaves `fixed`, within the deadline.
 * - 409 validation_in_progress: someone else's validation of the finding is
 *   running: follow it the same way, never start another.
 * - 429 (concurrency or daily replay cap): wait per Retry-After if it fits in
 *   timeout_minutes, then retry; else this and every remaining finding is
 *   reported not attempted.
 * - 403 proof_withheld: the plan withholds proof; the same answer holds for
 *   every finding, so the rest is not tried.
 * - 422 replay_unwireable, 404: this finding is not attempted (explained).
 * - An ambiguous failure (network, 5xx, malformed answer) may have started a
 *   replay: the finding's status is read back before trying again (the client
 *   never retries validate, since each call spends a replay run).
 * - Other service errors propagate; the shell reports them.
 */



const VALIDATION_OUTCOMES = (/* unused pure expression or super */ null && (['resolved', 'still_broken', 'not_eligible', 'not_attempted']));
/** Explanations shown to the user (the detail of a not-attempted finding). */
const NOT_ATTEMPTED_DETAIL = {
    proofWithheld: "proof withheld by the plan: this workspace's plan withholds the proof of findings (their attacks), and validation replays those attacks, so it needs a plan that includes proof",
    unwireable: 'the target cannot be wired for replay: validation re-sends the attacks to the live target, which must be reachable from the service over the HTTP transport with a valid endpoint_url, response_field and credentials in its agent config',
    notFound: 'the service no longer knows this finding (404): it was deleted or belongs to another workspace',
    capReached: 'daily replay cap or concurrency limit reached',
    stillValidating: 'still validating when timeout_minutes ran out',
    timedOutBefore: 'timeout_minutes ran out before this finding could be validated',
    timedOutWhile: 'timed out while validating'
};
/** Interval bounds while following a validation through the findings list. */
const FOLLOW_POLL_MIN_MS = 2_000;
const FOLLOW_POLL_MAX_MS = 15_000;
/** The shortest wait after a 429 that gave no usable Retry-After. */
const MIN_429_WAIT_MS = 1_000;
/** Attempts of one validate call after ambiguous failures (each one read back first). */
const MAX_AMBIGUOUS_ATTEMPTS = 3;
/** Ends this finding and all those after it with the same explanation. */
class StopAll extends Error {
    here;
    rest;
    constructor(here, rest) {
        super(rest);
        this.here = here;
        this.rest = rest;
    }
}
function timedOut(f) {
    return new StopAll({ outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.timedOutWhile, finding_status: f.status, attacks: attacksOf(f) }, NOT_ATTEMPTED_DETAIL.timedOutBefore);
}
function attacksOf(f) {
    return f.attacks.map((a) => ({ attack_id: a.attack_id, last_replay_status: a.last_replay_status }));
}
function safeId(id) {
    return (0,errors/* oneLine */.TN)(id, 80);
}
function clampMaxRuns(n) {
    if (!Number.isFinite(n))
        return 20;
    return Math.min(100, Math.max(1, Math.trunc(n)));
}
/** "2 attacks still reproduce, 1 could not be judged" from a finding after replay. */
function brokenDetail(f) {
    const reproduced = f.attacks.filter((a) => a.last_replay_status === 'reproduced').length;
    const inconclusive = f.attacks.filter((a) => a.last_replay_status === 'inconclusive').length;
    const parts = [];
    if (reproduced > 0)
        parts.push(`${reproduced} of ${f.attacks.length} attack${f.attacks.length === 1 ? '' : 's'} still reproduce${reproduced === 1 ? 's' : ''}`);
    if (inconclusive > 0)
        parts.push(`${inconclusive} could not be judged`);
    const what = parts.length > 0 ? parts.join(', ') : 'at least one attack still reproduces or could not be judged';
    return `${what}; the finding is ${f.status === 'open' ? 'open again' : `now ${safeId(f.status)}`}`;
}
/** The outcome told by a finding's status once a validation has ended. Null while it is still `fixed`. */
function outcomeOfStatus(f) {
    switch (f.status) {
        case 'fixed':
            return null;
        case 'FIXED_VERIFIED':
            return { outcome: 'resolved', detail: 'no attack reproduces any more; the finding is now FIXED_VERIFIED', finding_status: f.status, attacks: attacksOf(f) };
        case 'open':
            return { outcome: 'still_broken', detail: brokenDetail(f), finding_status: f.status, attacks: attacksOf(f) };
        case 'dismissed':
            return { outcome: 'not_eligible', detail: 'the finding was dismissed meanwhile; it is no longer marked fixed', finding_status: f.status, attacks: attacksOf(f) };
        default:
            // A status the description does not name (its complete set is not shown): the
            // finding left fixed without reaching FIXED_VERIFIED, so it is not resolved (fail closed).
            return {
                outcome: 'still_broken',
                detail: `the finding is now ${safeId(f.status)}, a status this action does not know; not counted as resolved`,
                finding_status: f.status,
                attacks: attacksOf(f)
            };
    }
}
function fromVerdict(res) {
    const f = res.finding;
    const replay = res.replay_run_id ? ` (replay run ${safeId(res.replay_run_id)})` : '';
    switch (res.verdict) {
        case 'resolved':
            return { outcome: 'resolved', detail: `no attack reproduces any more; the finding is now ${safeId(f.status)}${replay}`, finding_status: f.status, attacks: attacksOf(f) };
        case 'still_broken':
            return { outcome: 'still_broken', detail: `${brokenDetail(f)}${replay}`, finding_status: f.status, attacks: attacksOf(f) };
        case 'not_eligible':
            return {
                outcome: 'not_eligible',
                detail: `the finding is no longer marked fixed (status ${safeId(f.status)}); no replay run was spent`,
                finding_status: f.status,
                attacks: attacksOf(f)
            };
        case 'validating':
            return 'validating';
    }
}
function validate_mode_plural(n, word) {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}
class Validator {
    deps;
    modelId;
    random;
    constructor(deps, modelId) {
        this.deps = deps;
        this.modelId = modelId;
        this.random = deps.random ?? Math.random;
    }
    get opts() {
        return this.deps.signal ? { signal: this.deps.signal } : {};
    }
    /** Terminal runs' fixed findings, deduped, most severe first. */
    async collect(maxRuns) {
        const { api, log } = this.deps;
        const list = await api.listRuns(this.modelId, { limit: clampMaxRuns(maxRuns) }, this.opts);
        const seen = new Map();
        let runsScanned = 0;
        let order = 0;
        const rank = new Map();
        for (const run of list.runs) {
            if (run.status === 'running') {
                log.info(`Run ${safeId(run.run_id)} is still running; its findings are not readable yet, skipped.`);
                continue;
            }
            const findings = await this.fixedFindingsOf(run);
            if (findings === null)
                continue;
            runsScanned += 1;
            for (const f of findings) {
                if (f.status !== 'fixed' || seen.has(f.finding_id))
                    continue;
                seen.set(f.finding_id, { finding: f, runId: run.run_id });
                rank.set(f.finding_id, order++);
            }
        }
        const candidates = [...seen.values()].sort((a, b) => (0,contract/* severityRank */.qs)(a.finding.severity) - (0,contract/* severityRank */.qs)(b.finding.severity) ||
            (rank.get(a.finding.finding_id) ?? 0) - (rank.get(b.finding.finding_id) ?? 0));
        return { candidates, runsScanned, runsListed: list.runs.length };
    }
    async fixedFindingsOf(run) {
        try {
            const res = await this.deps.api.listFindings(run.run_id, { status: 'fixed' }, this.opts);
            return res.findings;
        }
        catch (err) {
            if (err instanceof errors/* ServiceError */._7 && err.status === 409) {
                this.deps.log.info(`Run ${safeId(run.run_id)} is still in progress; its findings are not readable yet, skipped.`);
                return null;
            }
            throw err;
        }
    }
    /** The finding as the findings list of its run shows it now; null when it is gone. */
    async readBack(c) {
        const res = await this.deps.api.listFindings(c.runId, {}, this.opts);
        return res.findings.find((f) => f.finding_id === c.finding.finding_id) ?? null;
    }
    followDelay(step) {
        const base = Math.min(FOLLOW_POLL_MAX_MS, FOLLOW_POLL_MIN_MS * 1.5 ** step);
        return Math.round(base * (0.8 + 0.4 * this.random()));
    }
    /** Follow a running validation (ours or someone else's) until the status leaves `fixed`. */
    async follow(c, why) {
        const { clock, deadline, log } = this.deps;
        const since = clock.now();
        let lastLog = since;
        let last = c.finding;
        log.info(`  ${why}; following it through the findings list of run ${safeId(c.runId)}.`);
        for (let step = 0;; step++) {
            const delay = this.followDelay(step);
            if (delay >= deadline.remainingMs()) {
                return { outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.stillValidating, finding_status: last.status, attacks: attacksOf(last) };
            }
            await clock.sleep(delay, this.deps.signal);
            const now = await this.readBack(c);
            if (now === null) {
                return {
                    outcome: 'not_attempted',
                    detail: `the finding disappeared from the findings list of run ${safeId(c.runId)} while validating`,
                    finding_status: null,
                    attacks: attacksOf(last)
                };
            }
            last = now;
            const done = outcomeOfStatus(now);
            if (done)
                return done;
            if (clock.now() - lastLog >= 30_000) {
                log.info(`  Still validating (${Math.round((clock.now() - since) / 1000)} s so far)…`);
                lastLog = clock.now();
            }
        }
    }
    /** Validate one finding; throws StopAll when the rest cannot be tried either. */
    async validate(c) {
        const { clock, deadline } = this.deps;
        const id = c.finding.finding_id;
        let ambiguous = 0;
        let capWaits = 0;
        for (;;) {
            let res;
            try {
                res = await this.deps.api.validateFinding(id, this.opts);
            }
            catch (err) {
                if (!(err instanceof errors/* ServiceError */._7))
                    throw err;
                if (err.status === 409 && (err.code === 'validation_in_progress' || err.code === undefined)) {
                    return this.follow(c, 'A validation of this finding is already running (409); not starting another');
                }
                if (err.status === 429) {
                    const wait = Math.max(MIN_429_WAIT_MS, err.retryAfterMs ?? (0,retry_policy/* backoffDelayMs */.Q4)(capWaits + 1, retry_policy/* DEFAULT_RETRY_POLICY */.cO, this.random));
                    if (wait >= deadline.remainingMs()) {
                        const detail = `${NOT_ATTEMPTED_DETAIL.capReached}: ${err.serviceMessage} (retry after ${Math.ceil(wait / 1000)} s, beyond timeout_minutes)`;
                        throw new StopAll({ outcome: 'not_attempted', detail, finding_status: c.finding.status, attacks: attacksOf(c.finding) }, NOT_ATTEMPTED_DETAIL.capReached);
                    }
                    capWaits += 1;
                    this.deps.log.info(`  Replay limit reached (429${err.code ? ` ${err.code}` : ''}: ${err.serviceMessage}); waiting ${Math.ceil(wait / 1000)} s${err.retryAfterMs !== undefined ? ' as the service asks' : ''}.`);
                    await clock.sleep(wait, this.deps.signal);
                    continue;
                }
                if (err.status === 403 && err.code === 'proof_withheld') {
                    throw new StopAll({ outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.proofWithheld, finding_status: c.finding.status, attacks: attacksOf(c.finding) }, NOT_ATTEMPTED_DETAIL.proofWithheld);
                }
                if (err.status === 422) {
                    return {
                        outcome: 'not_attempted',
                        detail: `${NOT_ATTEMPTED_DETAIL.unwireable} (service: ${err.serviceMessage})`,
                        finding_status: c.finding.status,
                        attacks: attacksOf(c.finding)
                    };
                }
                if (err.status === 404) {
                    return { outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.notFound, finding_status: null, attacks: attacksOf(c.finding) };
                }
                if ((err.ambiguous || err.transient) && ambiguous + 1 < MAX_AMBIGUOUS_ATTEMPTS) {
                    ambiguous += 1;
                    // The request may have started a replay: read the finding back before another attempt.
                    const delay = (0,retry_policy/* backoffDelayMs */.Q4)(ambiguous, retry_policy/* DEFAULT_RETRY_POLICY */.cO, this.random);
                    if (delay >= deadline.remainingMs())
                        throw timedOut(c.finding);
                    this.deps.log.info(`  No clear answer (${err.describe()}); checking the finding's status before trying again.`);
                    await clock.sleep(delay, this.deps.signal);
                    const now = await this.readBack(c);
                    if (now === null) {
                        return { outcome: 'not_attempted', detail: NOT_ATTEMPTED_DETAIL.notFound, finding_status: null, attacks: attacksOf(c.finding) };
                    }
                    const done = outcomeOfStatus(now);
                    if (done)
                        return done;
                    continue; // still fixed: nothing ran, or a replay runs now (the next attempt then meets 409 and follows it)
                }
                if (err.ambiguous || err.transient) {
                    err.hint = `validation of finding ${safeId(id)} got no clear answer after ${MAX_AMBIGUOUS_ATTEMPTS} attempts`;
                }
                throw err;
            }
            const out = fromVerdict(res);
            if (out !== 'validating')
                return out;
            return this.follow(c, `The replay${res.replay_run_id ? ` (run ${safeId(res.replay_run_id)})` : ''} did not finish quickly (verdict validating)`);
        }
    }
}
function summarise(findings, runsScanned, runsListed, args) {
    const count = (o) => findings.filter((f) => f.outcome === o).length;
    const resolved = count('resolved');
    const stillBroken = count('still_broken');
    const notEligible = count('not_eligible');
    const notAttempted = count('not_attempted');
    const failed = stillBroken > 0 || (notAttempted > 0 && args.failOnIncomplete);
    const model = safeId(args.modelId);
    let reason;
    if (findings.length === 0 && runsListed === 0) {
        reason = `Model ${model} has no runs yet: nothing to validate.`;
    }
    else if (findings.length === 0) {
        reason = `No findings marked fixed in the ${validate_mode_plural(runsListed, 'most recent run')} of model ${model} (${runsScanned} with readable findings): nothing to validate.`;
    }
    else {
        const parts = [];
        if (stillBroken > 0)
            parts.push(`${stillBroken} still broken`);
        if (notAttempted > 0)
            parts.push(`${notAttempted} not attempted`);
        if (resolved > 0)
            parts.push(`${resolved} resolved`);
        if (notEligible > 0)
            parts.push(`${notEligible} not eligible`);
        const head = `${validate_mode_plural(findings.length, 'fixed finding')} of model ${model}: ${parts.join(', ')}.`;
        if (stillBroken > 0)
            reason = `${head} Failing: a fix does not hold.`;
        else if (notAttempted > 0 && args.failOnIncomplete)
            reason = `${head} Failing: not every finding could be validated (set fail_on_incomplete: false to pass anyway).`;
        else if (notAttempted > 0)
            reason = `${head} Passing: fail_on_incomplete is false, so findings not attempted do not fail the step.`;
        else
            reason = `${head} Every fix that could be checked holds.`;
    }
    return { findings, resolved, stillBroken, notEligible, notAttempted, runsScanned, failed, reason };
}
/** The whole of validate mode: collect, validate one at a time, sum up. */
async function runValidateMode(deps, args) {
    const { log, deadline } = deps;
    const model = safeId(args.modelId);
    const v = new Validator(deps, args.modelId);
    log.info(`Looking for findings marked fixed in the ${clampMaxRuns(args.maxRuns)} most recent runs of model ${model}.`);
    const { candidates, runsScanned, runsListed } = await v.collect(args.maxRuns);
    log.info(`Found ${validate_mode_plural(candidates.length, 'finding')} marked fixed across ${validate_mode_plural(runsScanned, 'run')}.`);
    const out = [];
    let stopRest = null;
    for (let i = 0; i < candidates.length; i++) {
        const c = candidates[i];
        const f = c.finding;
        const base = { finding_id: f.finding_id, category: f.category, severity: f.severity, run_id: c.runId };
        const skip = (detail) => {
            out.push({ ...base, outcome: 'not_attempted', detail, finding_status: f.status, attacks: attacksOf(f) });
        };
        if (stopRest === null && deadline.expired())
            stopRest = NOT_ATTEMPTED_DETAIL.timedOutBefore;
        if (stopRest !== null) {
            skip(stopRest);
            continue;
        }
        log.info(`Validating ${i + 1}/${candidates.length}: finding ${safeId(f.finding_id)} (${(0,errors/* oneLine */.TN)(f.category, 80)}, ${f.severity})…`);
        let attempt;
        try {
            attempt = await v.validate(c);
        }
        catch (caught) {
            // The client's own waits (retries of a read) ran into the deadline.
            const err = caught instanceof errors/* ServiceError */._7 && caught.kind === 'timeout' ? timedOut(f) : caught;
            if (!(err instanceof StopAll))
                throw err;
            attempt = err.here;
            stopRest = err.rest;
            log.warning(`Finding ${safeId(f.finding_id)}: not attempted: ${(0,errors/* oneLine */.TN)(err.here.detail)}. The remaining findings are not attempted either.`);
        }
        out.push({ ...base, ...attempt });
        if (stopRest === null)
            log.info(`  → ${attempt.outcome.replace('_', ' ')}: ${(0,errors/* oneLine */.TN)(attempt.detail)}`);
    }
    const result = summarise(out, runsScanned, runsListed, args);
    log.info(result.reason);
    return result;
}

;// CONCATENATED MODULE: ./src/render-validation.ts
/**
 * The markdown report of validate mode (job summary, sticky comment, tracking
 * issue): a headline, counts, and one table row per finding with its category,
 * severity, outcome, replay status per attack and why.
 *
 * Every value that came from the service (ids, categories, statuses, details
 * quoting service messages) is untrusted and goes through markdown-safe.ts:
 * code spans for ids, `enumCell` for values that should be enums, `proseText`
 * for the detail line. The table is bounded so a huge list stays within
 * GitHub's comment size.
 */


/** Rows shown at most; the rest are counted below the table. */
const MAX_ROWS = 150;
/** Attacks listed per row at most. */
const MAX_ATTACKS_PER_ROW = 8;
const OUTCOME_LABEL = {
    still_broken: '❌ still broken',
    not_attempted: '⚠️ not attempted',
    resolved: '✅ resolved',
    not_eligible: '➖ not eligible'
};
/** Rows in this order: what needs attention first. */
const OUTCOME_ORDER = ['still_broken', 'not_attempted', 'resolved', 'not_eligible'];
function attacksCell(f) {
    if (f.attacks.length === 0)
        return '–';
    const shown = f.attacks.slice(0, MAX_ATTACKS_PER_ROW).map((a) => `${codeSpan(a.attack_id, { max: 40, table: true })}: ${enumCell(a.last_replay_status, contract/* REPLAY_STATUSES */.Z_)}`);
    const more = f.attacks.length - shown.length;
    if (more > 0)
        shown.push(`…and ${formatCount(more)} more`);
    return shown.join('<br>');
}
function row(f) {
    const status = f.finding_status === null ? '' : ` (${enumCell(f.finding_status, contract/* FINDING_STATUSES */.pM)})`;
    return [
        codeSpan(f.finding_id, { max: 60, table: true }),
        codeSpan(f.category, { max: 60, table: true }),
        enumCell(f.severity, contract/* SEVERITIES */.oC),
        `${OUTCOME_LABEL[f.outcome] ?? enumCell(f.outcome, [])}${status}`,
        attacksCell(f),
        proseText(f.detail, 400)
    ].join(' | ');
}
function headline(result) {
    if (result.findings.length === 0)
        return '✅ Nothing to validate';
    if (result.stillBroken > 0)
        return '❌ Fail: a fix does not hold';
    if (result.failed)
        return '⚠️ Fail: not every fixed finding could be validated';
    if (result.notAttempted > 0)
        return '⚠️ Pass, incomplete: some findings could not be validated';
    return '✅ Pass: every fix that could be checked holds';
}
/** The validation report as GitHub-flavoured markdown. */
function renderValidationMarkdown(result, ctx) {
    const out = [];
    out.push(`### Validation of fixed findings: model ${codeSpan(ctx.modelId, { max: 100 })}`);
    out.push('');
    out.push(`**${headline(result)}**`);
    out.push('');
    out.push(proseText(result.reason, 600));
    out.push('');
    out.push(`Resolved: **${formatCount(result.resolved)}** · Still broken: **${formatCount(result.stillBroken)}** · ` +
        `Not eligible: **${formatCount(result.notEligible)}** · Not attempted: **${formatCount(result.notAttempted)}** · ` +
        `Runs scanned: ${formatCount(result.runsScanned)}`);
    if (result.findings.length === 0)
        return `${out.join('\n')}\n`;
    const sorted = OUTCOME_ORDER.flatMap((o) => result.findings.filter((f) => f.outcome === o));
    // Findings with an outcome outside the known set (should not happen) still show.
    for (const f of result.findings)
        if (!OUTCOME_ORDER.includes(f.outcome))
            sorted.push(f);
    out.push('');
    out.push('| Finding | Category | Severity | Outcome | Replay status per attack | Detail |');
    out.push('|---|---|---|---|---|---|');
    for (const f of sorted.slice(0, MAX_ROWS))
        out.push(`| ${row(f)} |`);
    if (sorted.length > MAX_ROWS) {
        out.push('');
        out.push(`*${formatCount(sorted.length - MAX_ROWS)} more findings not shown; the JSON report (report_path) lists them all.*`);
    }
    out.push('');
    out.push('<sub>Resolved: every attack was replayed against the live target and none reproduces (FIXED_VERIFIED). ' +
        'Still broken: at least one attack reproduces or could not be judged; the finding is open again. ' +
        'Not eligible: the finding was no longer marked fixed. ' +
        'Not attempted: the service could not validate it in this run (see the detail).</sub>');
    return `${out.join('\n')}\n`;
}

;// CONCATENATED MODULE: ./src/github/context.ts
/**
 * Which pull request (if any) an event is about. Pure: the event name, its
 * payload (the JSON at GITHUB_EVENT_PATH) and GITHUB_REPOSITORY in, a target
 * out. Only pull_request and pull_request_target carry a PR to comment on;
 * every other event (push, schedule, workflow_dispatch, issue_comment, ...)
 * has none, and the report goes to the job summary (and the tracking issue).
 */
/** Events whose payload is a pull request the workflow runs for. */
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function prNumber(value) {
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
// GitHub owner and repository names: letters, digits, '-', '_', '.'.
const NAME = /^[A-Za-z0-9_.-]+$/;
function splitRepository(full) {
    if (typeof full !== 'string')
        return undefined;
    const parts = full.trim().split('/');
    if (parts.length !== 2)
        return undefined;
    const [owner, repo] = parts;
    if (!NAME.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..')
        return undefined;
    return { owner, repo };
}
function targetFromEvent(eventName, payload, repository) {
    if (!PULL_REQUEST_EVENTS.has(eventName))
        return { kind: 'none', eventName };
    const body = isRecord(payload) ? payload : {};
    const pr = isRecord(body.pull_request) ? body.pull_request : undefined;
    const number = prNumber(pr?.number) ?? prNumber(body.number);
    if (number === undefined) {
        return { kind: 'none', eventName, reason: 'the event payload holds no pull request number' };
    }
    const repoFromPayload = isRecord(body.repository) ? splitRepository(body.repository.full_name) : undefined;
    const where = splitRepository(repository) ?? repoFromPayload;
    if (where === undefined) {
        return { kind: 'none', eventName, reason: 'GITHUB_REPOSITORY is not set or not of the form owner/repo' };
    }
    return { kind: 'pull_request', owner: where.owner, repo: where.repo, number };
}

;// CONCATENATED MODULE: ./src/publish.ts


/** GitHub calls get their own short budget: they must not hold the check for long. */
const GITHUB_BUDGET_MS = 60_000;
async function readPayload(path) {
    if (!path)
        return null;
    const { readFile } = await Promise.resolve(/* import() */).then(__webpack_require__.t.bind(__webpack_require__, 1455, 23));
    try {
        return JSON.parse(await readFile(path, 'utf8'));
    }
    catch {
        return null;
    }
}
async function publishToGitHub(deps, args) {
    const { io } = deps;
    const { env, log } = io;
    const none = { commentUrl: null, issueUrl: null };
    const target = targetFromEvent(env.GITHUB_EVENT_NAME ?? '', await readPayload(env.GITHUB_EVENT_PATH), env.GITHUB_REPOSITORY ?? '');
    const wantComment = target.kind === 'pull_request' && args.inputs.comment !== 'off';
    const wantIssue = target.kind === 'none' && args.inputs.issue === 'update';
    if (!wantComment && !wantIssue) {
        if (target.kind === 'none')
            log.info(`No pull request for event '${target.eventName}': the report is in the job summary.`);
        return none;
    }
    if (args.inputs.githubToken === '') {
        log.warning('github_token is empty, so no comment or issue can be written: leave github_token at its default (${{ github.token }}).');
        return none;
    }
    try {
        const { Deadline } = await Promise.resolve(/* import() */).then(__webpack_require__.bind(__webpack_require__, 9373));
        const { createIssuesApi } = await __webpack_require__.e(/* import() */ 702).then(__webpack_require__.bind(__webpack_require__, 6702));
        const api = await createIssuesApi({
            token: args.inputs.githubToken,
            apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
            clock: deps.clock,
            deadline: Deadline.after(deps.clock, GITHUB_BUDGET_MS),
            signal: deps.signal,
            log,
            random: deps.random
        });
        if (target.kind === 'pull_request') {
            const { postStickyComment } = await __webpack_require__.e(/* import() */ 648).then(__webpack_require__.bind(__webpack_require__, 7648));
            const out = await postStickyComment(api, target, args.commentBody(), args.marker, args.inputs.comment, log);
            if (out.url)
                log.info(`PR comment ${out.action}: ${out.url}`);
            return { commentUrl: out.url, issueUrl: null };
        }
        const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
        if (!owner || !repo) {
            log.warning('GITHUB_REPOSITORY is not set, so the tracking issue cannot be kept.');
            return none;
        }
        const { syncTrackingIssue } = await __webpack_require__.e(/* import() */ 812).then(__webpack_require__.bind(__webpack_require__, 3812));
        const out = await syncTrackingIssue(api, { owner, repo }, { marker: args.marker, title: args.issueTitle, body: args.commentBody(), failing: args.failing }, log);
        if (out.url)
            log.info(`Tracking issue ${out.action}: ${out.url}`);
        return { commentUrl: null, issueUrl: out.url };
    }
    catch (err) {
        log.warning(`Could not publish to GitHub (the gate's result is unchanged): ${(0,errors/* describeFailure */.Ic)(err)}`);
        return none;
    }
}

;// CONCATENATED MODULE: ./src/main.ts
/**
 * The main step: read inputs, run the gate (or validate mode), and turn the
 * outcome into outputs, the job summary, annotations, report.json, the PR
 * comment or tracking issue, and the step's pass or fail.
 *
 * Everything at the edge (the runner's I/O, HTTP, GitHub, clock, signals) is
 * passed in through MainDeps, so tests can run the whole step in-process.
 */

















function setOutputs(io, outputs, secrets) {
    for (const [name, value] of Object.entries(outputs))
        io.setOutput(name, scrubSecrets(value, secrets));
}
function runUrl(env) {
    const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
    return server && repo && id ? `${server}/${repo}/actions/runs/${id}` : null;
}
function safeFileName(s) {
    return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80);
}
async function writeReportFile(env, name, json) {
    const dir = (0,external_node_path_.join)(env.RUNNER_TEMP || (0,external_node_os_.tmpdir)(), 'asas-gate');
    await (0,promises_.mkdir)(dir, { recursive: true });
    const path = (0,external_node_path_.join)(dir, `${safeFileName(name)}.json`);
    await (0,promises_.writeFile)(path, json, 'utf8');
    return path;
}
/** Run the main step. Never throws: every failure fails the step with a line of its kind. */
async function runMain(deps) {
    const { io } = deps;
    // Mask the key before anything else can print it.
    const rawKey = (0,src_inputs/* envInputReader */.tT)(io.env)('api_key');
    if (rawKey !== '')
        io.setSecret(rawKey);
    const secrets = rawKey !== '' ? [rawKey] : [];
    try {
        const inputs = (0,src_inputs/* readInputs */.Ko)((0,src_inputs/* envInputReader */.tT)(io.env));
        if (inputs.mode === 'validate')
            await runValidate(deps, inputs, secrets);
        else
            await runGateStep(deps, inputs, secrets);
    }
    catch (err) {
        const kind = (0,errors/* failureKind */.zU)(err);
        setOutputs(io, { result: 'error' }, secrets);
        const line = scrubSecrets((0,errors/* describeFailure */.Ic)(err), secrets);
        try {
            await io.appendSummary(`## AI agent security gate: error\n\n${kind === 'bug' ? 'An unexpected error occurred (a bug in this action).' : (0,errors/* oneLine */.TN)(line, 2000).replace(/[<>@`|[\]]/g, ' ')}\n`);
        }
        catch {
            // The summary is best effort here; the failure below is what matters.
        }
        io.setFailed(line);
    }
}
async function runGateStep(deps, inputs, secrets) {
    const { io, clock } = deps;
    const outcome = await runGate({
        makeApi: (deadline) => deps.makeApi(inputs, deadline),
        clock,
        signal: deps.signal,
        log: io.log,
        random: deps.random,
        onRunStarted: (runId) => (0,state/* saveRunStarted */.Yy)(io, runId),
        onRunSettled: () => (0,state/* saveRunSettled */.UK)(io)
    }, { modelId: inputs.modelId, categories: inputs.categories, minSeverity: inputs.minSeverity, timeoutMs: inputs.timeoutMs });
    const { decision, run, results } = outcome;
    const report = buildReport(gateReportInput(outcome, { modelId: inputs.modelId, minSeverity: inputs.minSeverity, runUrl: runUrl(io.env), secrets }));
    const reportPath = await writeReportFile(io.env, `report-${inputs.modelId}-${outcome.triggered.runId}`, scrubSecrets(renderJson(report), secrets));
    setOutputs(io, {
        run_id: outcome.triggered.runId,
        status: run?.status ?? '',
        verdict: run?.verdict ?? '',
        result: decision.result,
        findings_count: decision.findingsAtOrAbove === null ? '' : String(decision.findingsAtOrAbove),
        categories_planned: JSON.stringify(run?.categories_planned ?? []),
        categories_completed: JSON.stringify(run?.categories_completed ?? []),
        report_path: reportPath
    }, secrets);
    if (!deps.signal.aborted) {
        for (const a of buildAnnotations(report))
            io.annotate(a.level, scrubSecrets(a.message, secrets), scrubSecrets(a.title, secrets));
        await io.appendSummary(scrubSecrets(renderSummary(report), secrets));
        const published = await publishToGitHub({ io, clock, signal: deps.signal, random: deps.random }, {
            inputs,
            marker: commentMarker(inputs.modelId),
            commentBody: () => scrubSecrets(renderComment(report), secrets),
            issueTitle: `AI agent security gate: ${decision.result} for model ${inputs.modelId}`,
            failing: decision.result !== 'pass'
        });
        if (published.commentUrl)
            setOutputs(io, { comment_url: published.commentUrl }, secrets);
    }
    for (const note of results.notes)
        io.log.info(scrubSecrets(note, secrets));
    const line = `Result: ${decision.result}: ${decision.reason}`;
    if (decision.result === 'pass')
        io.log.info(line);
    else if (decision.result === 'incomplete' && !inputs.failOnIncomplete)
        io.log.warning(`${line} (fail_on_incomplete is false: not failing the step)`);
    else
        io.setFailed(scrubSecrets(line, secrets));
}
async function runValidate(deps, inputs, secrets) {
    const { io, clock } = deps;
    const deadline = src_clock.Deadline.after(clock, inputs.timeoutMs);
    const result = await runValidateMode({ api: deps.makeApi(inputs, deadline), clock, deadline, signal: deps.signal, log: io.log, random: deps.random }, { modelId: inputs.modelId, maxRuns: inputs.maxRuns, failOnIncomplete: inputs.failOnIncomplete });
    const markdown = scrubSecrets(renderValidationMarkdown(result, { modelId: inputs.modelId }), secrets);
    const reportPath = await writeReportFile(io.env, `validation-${inputs.modelId}`, scrubSecrets(JSON.stringify(result, null, 2), secrets));
    setOutputs(io, {
        result: result.failed ? 'fail' : 'pass',
        resolved_count: String(result.resolved),
        still_broken_count: String(result.stillBroken),
        not_attempted_count: String(result.notAttempted),
        report_path: reportPath
    }, secrets);
    await io.appendSummary(markdown);
    await publishToGitHub({ io, clock, signal: deps.signal, random: deps.random }, {
        inputs,
        marker: commentMarker(`${inputs.modelId}#validate`),
        commentBody: () => markdown,
        issueTitle: `AI agent security validation: ${result.failed ? 'fail' : 'pass'} for model ${inputs.modelId}`,
        failing: result.failed
    });
    const line = `Validation: ${result.reason}`;
    if (result.failed)
        io.setFailed(scrubSecrets(line, secrets));
    else
        io.log.info(line);
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

//# sourceMappingURL=956.index.js.map