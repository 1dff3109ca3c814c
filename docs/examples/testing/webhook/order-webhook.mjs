// A webhook source: a shop posts each new order to its endpoint with a shared secret in a
// header. Wrong secret: 401 and nothing emitted. The same order posted twice is emitted once.
export default {
  key: "example-order-webhook",
  name: "New Order (webhook)",
  version: "0.1.0",
  type: "source",
  dedupe: "unique",
  props: {
    http: { type: "$.interface.http", customResponse: true },
    secret: { type: "string", secret: true, label: "Shared Secret", description: "The value the shop sends in X-Shop-Secret." },
  },
  async run(event) {
    if (event.headers["x-shop-secret"] !== this.secret) {
      console.warn(`refused a request from ${event.client_ip}: wrong secret`);
      this.http.respond({ status: 401, body: { error: "wrong secret" } });
      return;
    }
    const order = event.body;
    this.$emit(order, { id: order.id, summary: `Order ${order.id}: ${order.total} ${order.currency}`, ts: Date.parse(order.created_at) });
    this.http.respond({ status: 202, body: { received: order.id } });
  },
};
