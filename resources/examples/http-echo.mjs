// An HTTP source: every request to its endpoint becomes an event, and the caller gets the event
// id back. Deploy it with `POST /v1/sources` (component_code) and send it a request.
export default {
  key: "spout-http-echo",
  name: "HTTP echo",
  description: "Emits every request made to its endpoint and answers with what it emitted.",
  version: "0.1.0",
  type: "source",
  props: {
    http: { type: "$.interface.http", customResponse: true },
    label: { type: "string", label: "Label", description: "Added to each event's summary.", optional: true, default: "request" },
  },
  async run(event) {
    const summary = `${this.label}: ${event.method} ${event.path}`;
    this.$emit({ method: event.method, path: event.path, query: event.query, body: event.body }, { summary });
    this.http.respond({ status: 202, body: { accepted: true, summary } });
  },
};
