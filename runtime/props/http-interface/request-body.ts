// How an HTTP interface's event reads a request's body (`event.body`), as Pipedream parses it:
// JSON by its content type, forms into an object, anything else as text. Shared by the `/e/`
// endpoints and `spout/testing`, so a test's request reaches the component as a real one would.
import querystring from 'node:querystring';

/** `event.body` for a body's text and the request's content type (undefined when the body is empty). */
export function parseRequestBody(contentType: string, text: string): unknown {
  if (text.length === 0) return undefined;
  const type = contentType.toLowerCase();
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type.startsWith('application/x-www-form-urlencoded')) return { ...querystring.parse(text) };
  return text;
}
