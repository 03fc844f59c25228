export const id = 94;
export const ids = [94];
export const modules = {

/***/ 5094:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   LW: () => (/* binding */ FaultInjector),
/* harmony export */   ln: () => (/* binding */ FAULT_KINDS),
/* harmony export */   parseFaultSpec: () => (/* binding */ parseFaultSpec)
/* harmony export */ });
/* unused harmony exports DEFAULT_HANG_MS, DEFAULT_RETRY_AFTER_SECONDS, DEFAULT_BURST_LENGTH */
/* harmony import */ var _service_contract_index_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1357);
/* harmony import */ var _util_seeded_random_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1664);



const FAULT_KINDS = [
    'status500',
    'status502',
    'status503',
    'status504',
    'reset_before',
    'reset_after',
    'hang',
    'truncated',
    'non_json',
    'burst429'
];
const DEFAULT_HANG_MS = 30_000;
const DEFAULT_RETRY_AFTER_SECONDS = 1;
const DEFAULT_BURST_LENGTH = 3;
function isEndpointName(s) {
    return Object.prototype.hasOwnProperty.call(_service_contract_index_js__WEBPACK_IMPORTED_MODULE_0__/* .ENDPOINTS */ .Hr, s);
}
function parseProbability(key, raw) {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
        throw new Error(`fault spec: ${key} must be a number between 0 and 1, got '${raw}'`);
    }
    return n;
}
function parseNonNegativeInt(key, raw) {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(n) || n < 0) {
        throw new Error(`fault spec: ${key} must be a non-negative integer, got '${raw}'`);
    }
    return n;
}
/**
 * Parses `seed=42,rate=0.2` or
 * `seed=1,rate=0.1,kinds=status503+reset_after,getRun=0.5,hangMs=20000`.
 * Keys: seed, rate, kinds (joined with +), hangMs, retryAfterSeconds,
 * burstLength, and any endpoint name of the contract (its probability).
 */
function parseFaultSpec(spec) {
    const config = { seed: 1, rate: 0 };
    let seenSeed = false;
    for (const part of spec
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '')) {
        const eq = part.indexOf('=');
        if (eq <= 0)
            throw new Error(`fault spec: expected key=value, got '${part}'`);
        const key = part.slice(0, eq).trim();
        const value = part.slice(eq + 1).trim();
        if (key === 'seed') {
            config.seed = parseNonNegativeInt(key, value);
            seenSeed = true;
        }
        else if (key === 'rate')
            config.rate = parseProbability(key, value);
        else if (key === 'hangMs')
            config.hangMs = parseNonNegativeInt(key, value);
        else if (key === 'retryAfterSeconds')
            config.retryAfterSeconds = parseNonNegativeInt(key, value);
        else if (key === 'maxFaults')
            config.maxFaults = parseNonNegativeInt(key, value);
        else if (key === 'burstLength') {
            const n = parseNonNegativeInt(key, value);
            if (n < 1)
                throw new Error('fault spec: burstLength must be at least 1');
            config.burstLength = n;
        }
        else if (key === 'kinds') {
            const kinds = value.split('+').map((k) => k.trim());
            for (const k of kinds) {
                if (!FAULT_KINDS.includes(k)) {
                    throw new Error(`fault spec: unknown fault kind '${k}' (known: ${FAULT_KINDS.join(', ')})`);
                }
            }
            if (kinds.length === 0)
                throw new Error('fault spec: kinds must not be empty');
            config.kinds = kinds;
        }
        else if (isEndpointName(key)) {
            config.endpoints = { ...(config.endpoints ?? {}), [key]: parseProbability(key, value) };
        }
        else {
            throw new Error(`fault spec: unknown key '${key}'`);
        }
    }
    if (!seenSeed)
        throw new Error('fault spec: seed is required (e.g. seed=42,rate=0.2)');
    return config;
}
/** Decides, request by request, which fault (if any) to inject. */
class FaultInjector {
    config;
    random;
    bursts = new Map();
    /** Number of requests that got a fault so far. */
    injected = 0;
    constructor(config) {
        this.config = config;
        this.random = (0,_util_seeded_random_js__WEBPACK_IMPORTED_MODULE_1__/* .seededRandom */ .I)(config.seed);
    }
    get hangMs() {
        return this.config.hangMs ?? DEFAULT_HANG_MS;
    }
    get retryAfterSeconds() {
        return this.config.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    }
    /** The fault for the next request to `endpoint`, or null. */
    next(endpoint) {
        if (this.config.maxFaults !== undefined && this.injected >= this.config.maxFaults)
            return null;
        const kind = this.draw(endpoint);
        if (kind)
            this.injected++;
        return kind;
    }
    draw(endpoint) {
        const remaining = this.bursts.get(endpoint) ?? 0;
        if (remaining > 0) {
            this.bursts.set(endpoint, remaining - 1);
            return 'burst429';
        }
        const p = this.config.endpoints?.[endpoint] ?? this.config.rate;
        if (!(this.random() < p))
            return null;
        const kinds = this.config.kinds && this.config.kinds.length > 0 ? this.config.kinds : FAULT_KINDS;
        const kind = kinds[Math.floor(this.random() * kinds.length)] ?? kinds[0];
        if (kind === 'burst429') {
            this.bursts.set(endpoint, Math.max(1, this.config.burstLength ?? DEFAULT_BURST_LENGTH) - 1);
        }
        return kind;
    }
}


/***/ }),

/***/ 1664:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ seededRandom)
/* harmony export */ });
/** mulberry32: a small, fast, seeded PRNG returning floats in [0, 1). For fault schedules and simulations. */
function seededRandom(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}


/***/ })

};

//# sourceMappingURL=94.index.js.map