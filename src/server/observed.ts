/**
 * `target` with every promise (or thenable) its methods return observed: a rejection is reported (`onError`)
 * even when the caller fires and forgets — Colyseus persists its room counts through presence
 * that way, and an outage would otherwise surface as an unhandled rejection — and it still
 * reaches every caller that waits for it, as `translate` makes it.
 */
export function observed<T extends object>(target: T, onError: (method: string, err: unknown) => void, translate: (err: unknown) => unknown = (err) => err): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(object, args);
        // The Redis driver's `findOne` answers a thenable query, awaited like a promise.
        if (typeof (result as PromiseLike<unknown> | undefined)?.then !== 'function') return result;
        const answered = Promise.resolve(result).catch((err: unknown) => {
          onError(String(property), err);
          throw translate(err);
        });
        // Handled even when the caller fires and forgets; a caller that waits still gets it.
        answered.catch(() => undefined);
        return answered;
      };
    },
  });
}
