// Every request to the endpoint becomes an event; the caller gets the configured answer.
export default {
  key: "http-new-requests",
  name: "New Requests",
  description: "Emit an event for each HTTP request sent to this source's endpoint, and answer the caller with a response you choose.",
  version: "0.1.0",
  type: "source",
  props: {
    http: {
      type: "$.interface.http",
      customResponse: true,
    },
    emitBodyOnly: {
      type: "boolean",
      label: "Body Only",
      description: "Emit only the request body instead of the whole request (method, path, query, headers, body).",
      optional: true,
      default: false,
    },
    responseStatus: {
      type: "integer",
      label: "Response Status",
      description: "Status code the caller gets.",
      optional: true,
      default: 200,
      min: 100,
      max: 599,
    },
    responseBody: {
      type: "string",
      label: "Response Body",
      description: "Body the caller gets; JSON text is sent as JSON.",
      optional: true,
      default: '{"success":true}',
    },
  },
  methods: {
    responseBodyValue() {
      const text = this.responseBody ?? '{"success":true}';
      try {
        return {
          json: true,
          body: JSON.parse(text),
        };
      } catch {
        return {
          json: false,
          body: text,
        };
      }
    },
  },
  async run(event) {
    if (!event?.method) {
      // Run now (no request): nothing to answer.
      this.$emit(
        {
          note: "run without a request",
        },
        {
          summary: "Run now",
          ts: Date.now(),
        },
      );
      return;
    }
    const { method, path, query, headers, body } = event;
    this.$emit(
      this.emitBodyOnly
        ? body
        : {
            method,
            path,
            query,
            headers,
            body,
          },
      {
        summary: `${method} ${path}`,
        ts: Date.now(),
      },
    );
    const answer = this.responseBodyValue();
    this.http.respond({
      status: this.responseStatus ?? 200,
      headers: {
        "content-type": answer.json ? "application/json" : "text/plain; charset=utf-8",
      },
      body: answer.body,
    });
  },
};
