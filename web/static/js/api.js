// The JSON API: GET the state, POST commands carrying the version they were decided on.
// An error answers {error, code}: the message is shown in the page's language (said()).
import { said } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, message, body) {
    super(said(body && body.code, message));
    this.status = status;
    this.code = body && body.code;
    this.body = body;
  }
}

async function parse(response) {
  const type = response.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await response.json().catch(() => null) : null;
  if (!response.ok) {
    const message = (body && body.error) || `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message, body);
  }
  return body;
}

export async function get(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" }, cache: "no-store" });
  return parse(response);
}

export async function post(path, body) {
  return send("POST", path, body);
}

export async function put(path, body) {
  return send("PUT", path, body);
}

async function send(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  return parse(response);
}
