/** Section 4: each endpoint's method, path template and success status. */
export const API_PREFIX = '/api/v1'

export const ENDPOINTS = {
  triggerRun: { method: 'POST', path: '/api/v1/run', ok: 202 },
  getRun: { method: 'GET', path: '/api/v1/run/{run_id}', ok: 200 },
  getCoverage: { method: 'GET', path: '/api/v1/run/{run_id}/coverage', ok: 200 },
  cancelRun: { method: 'POST', path: '/api/v1/run/{run_id}/cancel', ok: 202 },
  listRuns: { method: 'GET', path: '/api/v1/model/{model_id}/run', ok: 200 },
  listModels: { method: 'GET', path: '/api/v1/model', ok: 200 },
  registerModel: { method: 'POST', path: '/api/v1/model', ok: 201 },
  listFindings: { method: 'GET', path: '/api/v1/run/{run_id}/findings', ok: 200 },
  closeFinding: { method: 'PATCH', path: '/api/v1/findings/{finding_id}/close', ok: 200 },
  validateFinding: { method: 'POST', path: '/api/v1/findings/{finding_id}/validate', ok: 200 },
  listCategories: { method: 'GET', path: '/api/v1/category', ok: 200 },
  getProfile: { method: 'GET', path: '/api/v1/model/{model_id}/profile', ok: 200 },
  changeProfile: { method: 'PATCH', path: '/api/v1/model/{model_id}/profile', ok: 200 },
  confirmProfile: { method: 'POST', path: '/api/v1/model/{model_id}/profile/confirm', ok: 200 }
} as const
export type EndpointName = keyof typeof ENDPOINTS

/** Scope that triggering and cancelling a run require. */
export const SCOPE_TEST_RUN = 'test:run'
