// Replacing a builtin function inside the host (fs, dns) without losing what hangs on it.

/** Gives `wrapper` the own properties of `original` (`realpath.native`, the promisified forms of `exists` and `lookup`) that it does not have itself, and returns it. */
export function withPropertiesOf<T extends object>(wrapper: T, original: object): T {
  for (const key of Reflect.ownKeys(original)) {
    // Its own (a promisified form of its own, say) stay: Node defines some of them for good.
    if (key === 'length' || key === 'name' || key === 'prototype' || Object.hasOwn(wrapper, key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(original, key);
    if (descriptor) Object.defineProperty(wrapper, key, descriptor);
  }
  return wrapper;
}
