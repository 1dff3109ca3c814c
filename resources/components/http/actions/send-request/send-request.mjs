// Sends the request configured in the http_request prop and returns the response data.
export default {
  key: "http-send-request",
  name: "Send HTTP Request",
  description: "Send an HTTP request (method, URL, headers, query and body as configured) and return the response data.",
  version: "0.1.0",
  type: "action",
  props: {
    request: {
      type: "http_request",
      label: "HTTP Request",
      description: "The request to send.",
      default: {
        method: "GET",
        url: "https://example.com/",
      },
    },
  },
  async run({ $ }) {
    const response = await this.request.execute();
    $.export("$summary", `Sent ${this.request.method ?? "the"} request`);
    return response.data;
  },
};
