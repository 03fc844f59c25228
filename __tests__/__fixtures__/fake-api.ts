import type { ServiceApi } from '../../src/service/service-api.js'

/** A ServiceApi whose unscripted methods fail the test loudly. */
export function fakeApi(methods: Partial<ServiceApi>): ServiceApi & { calls: string[] } {
  const calls: string[] = []
  const handler: ProxyHandler<object> = {
    get(_t, prop: string) {
      if (prop === 'calls') return calls
      const impl = (methods as Record<string, unknown>)[prop]
      return (...args: unknown[]) => {
        calls.push(prop)
        if (typeof impl !== 'function') throw new Error(`fakeApi: ${prop} was not scripted`)
        return (impl as (...a: unknown[]) => unknown)(...args)
      }
    }
  }
  return new Proxy({}, handler) as ServiceApi & { calls: string[] }
}
