// Methods bound to the object that holds them, as Pipedream binds a component's and an app's.

/**
 * Puts each function of `methods` on `self`, bound to it: registry code hands methods around
 * detached (`paginate(this.app.list, …)`, `const { fn } = this`, `args.map(this.parse)`) and still
 * expects `this` inside them. They are not enumerable, so code that spreads `this` into a request
 * (`const { app, ...data } = this`) sends its props, not its methods.
 */
export function bindMethods(self: Record<string, unknown>, methods: Record<string, unknown>): void {
  for (const [name, fn] of Object.entries(methods)) {
    if (typeof fn === 'function') Object.defineProperty(self, name, { value: (fn as (...args: unknown[]) => unknown).bind(self), writable: true, configurable: true, enumerable: false });
  }
}
